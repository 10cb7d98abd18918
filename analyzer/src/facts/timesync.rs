//! Time-synchronisation facts: which sources discipline the clock, the offset and frequency.
//!
//! In: `chronyc tracking`, `chronyc sources`, `ntpq -pn`, `timedatectl`, `vmware-toolbox-cmd
//! timesync status`, `ps` (which daemons run). Out: [`TimeSync`].

use crate::evidence::Cited;
use serde::Serialize;

/// Clock discipline state.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TimeSync {
    /// Offset of the system clock from true time, seconds (positive = fast), from
    /// `chronyc tracking` "System time", or the selected `ntpq` peer's offset.
    pub offset_s: Option<Cited<f64>>,
    /// Frequency error, ppm (positive = fast).
    pub frequency_ppm: Option<Cited<f64>>,
    /// Whether the sync daemon reports synchronised (chrony leap status, timedatectl).
    pub synchronised: Option<Cited<bool>>,
    /// Daemons disciplining the clock: `chronyd`, `ntpd`, `systemd-timesyncd`, with evidence.
    /// A daemon is here only on proof that it runs: a process row, a `chronyc tracking` answer,
    /// or a peer row of `ntpq -p` (its header alone proves nothing).
    pub daemons: Vec<Cited<String>>,
    /// Whether [`TimeSync::daemons`] is the whole answer: a complete process list (one that
    /// shows PID 1, as `ps -e`, `ps aux` and `ps -ef` do) was read, so a daemon missing from
    /// `daemons` does not run. When false, a missing daemon is unknown.
    pub daemons_complete: bool,
    /// VMware Tools periodic time synchronisation enabled (`vmware-toolbox-cmd timesync status`).
    pub vmware_periodic_sync: Option<Cited<bool>>,
    /// Whether any time-sync evidence was collected at all (an `ntpq -p` answer counts only
    /// with a peer row).
    pub evidence_present: bool,
}

use crate::artifacts::Collected;
use crate::facts::Processes;
use parsers::time::{
    chrony_tracking::Tracking, ntpq::Peers, timedatectl::Timedatectl,
    vmware_timesync::VmwareTimesync,
};

/// Daemons that discipline the clock, by process name.
const DAEMONS: &[&str] = &[
    "chronyd",
    "ntpd",
    "systemd-timesyncd",
    "ntpsec",
    "timesyncd",
];

/// Builds time-sync facts; `procs` tells which daemons run.
pub fn build(c: &Collected, procs: &Processes) -> TimeSync {
    let mut t = TimeSync {
        daemons_complete: procs.listing.is_complete(),
        ..TimeSync::default()
    };
    if let Some((a, x)) = c.records::<Tracking>().next() {
        t.evidence_present = true;
        if let Some(v) = x.system_time_s {
            t.offset_s = Some(Cited::new(
                v,
                &a.path,
                x.line_of("System time").unwrap_or(1),
            ));
        }
        if let Some(v) = x.frequency_ppm {
            t.frequency_ppm = Some(Cited::new(v, &a.path, x.line_of("Frequency").unwrap_or(1)));
        }
        if let Some(v) = x.synchronised() {
            t.synchronised = Some(Cited::new(
                v,
                &a.path,
                x.line_of("Leap status").unwrap_or(1),
            ));
        }
    }
    // `ntpq -p` prints its header before it asks for each peer; without a peer row the answer
    // says nothing of the daemon.
    if let Some((a, x)) = c.records::<Peers>().find(|(_, x)| !x.peers.is_empty()) {
        t.evidence_present = true;
        if t.offset_s.is_none() {
            if let Some(p) = x.system_peer() {
                if let Some(ms) = p.offset_ms {
                    t.offset_s = Some(Cited::lines(ms / 1000.0, &a.path, vec![1, p.line]));
                }
            }
        }
        if !procs.list.iter().any(|p| p.value.comm.starts_with("ntpd")) {
            let line = x.peers.first().map_or(1, |p| p.line);
            t.daemons
                .push(Cited::lines("ntpd".into(), &a.path, vec![1, line]));
        }
    }
    if let Some((a, x)) = c.records::<Timedatectl>().next() {
        t.evidence_present = true;
        if t.synchronised.is_none() {
            if let Some(v) = x.synchronized {
                let line = x
                    .line_of("System clock synchronized")
                    .or_else(|| x.line_of("NTP synchronized"))
                    .unwrap_or(1);
                t.synchronised = Some(Cited::new(v, &a.path, line));
            }
        }
    }
    if let Some((a, x)) = c.records::<VmwareTimesync>().next() {
        t.evidence_present = true;
        t.vmware_periodic_sync = Some(Cited::new(x.enabled, &a.path, x.line));
    }
    for p in &procs.list {
        if DAEMONS.contains(&p.value.comm.as_str())
            && !t.daemons.iter().any(|d| d.value == p.value.comm)
        {
            t.daemons
                .retain(|d| !(d.value == "ntpd" && p.value.comm == "ntpd"));
            t.daemons.push(Cited {
                value: p.value.comm.clone(),
                artifact: p.artifact.clone(),
                lines: p.lines.clone(),
            });
        }
    }
    if t.daemons.is_empty() {
        if let Some((a, _)) = c.records::<Tracking>().next() {
            // chronyc answered, so chronyd runs.
            t.daemons.push(Cited::new("chronyd".into(), &a.path, 1));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Limits;

    /// `ntpq -pn` with five pool rows and peers (jc, Ubuntu 18.04).
    const NTPQ: &str =
        include_str!("../../../parsers/tests/fixtures/ntpq/jc__ntpq-pn-ubuntu1804-pool.txt");
    /// `ps -eo …` of a whole host: PID 1 is there, no time-sync daemon.
    const PS_ALL: &str =
        include_str!("../../../parsers/tests/fixtures/captured-b/ps-eo-custom.txt");
    /// `ps aux` of a whole host (jc, CentOS 7): PID 1 and chronyd.
    const PS_CHRONYD: &str =
        include_str!("../../../parsers/tests/fixtures/ps/jc__ps-axu-centos7.txt");
    /// `ps -f --ppid N`: the children of one shell, without PID 1.
    const PS_PARTIAL: &str =
        include_str!("../../../parsers/tests/fixtures/captured-b/ps-f-ppid-partial.txt");
    /// `chronyc tracking` of a synchronised chronyd 4.3.
    const TRACKING: &str = include_str!(
        "../../../parsers/tests/fixtures/captured-b/chronyc-tracking-chrony4-synced.txt"
    );

    /// The first `n` lines of `text`.
    fn first_lines(text: &str, n: usize) -> String {
        text.lines().take(n).map(|l| format!("{l}\n")).collect()
    }

    /// Time-sync facts of a folder of these `(path, text)` files, each path one the loose
    /// layout names (`ntpq.txt`, `ps.txt`, `chronyc-tracking.txt`).
    fn facts(files: &[(&str, &str)]) -> TimeSync {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            std::fs::write(dir.path().join(path), text).unwrap();
        }
        let c = crate::artifacts::collect(dir.path(), &Limits::default()).unwrap();
        for (path, _) in files {
            let a = c.artifacts.iter().find(|a| a.path.ends_with(path)).unwrap();
            assert!(a.data.is_some(), "{path}: {:?}", a.outcome);
        }
        build(&c, &crate::facts::process::build(&c))
    }

    fn names(t: &TimeSync) -> Vec<&str> {
        t.daemons.iter().map(|d| d.value.as_str()).collect()
    }

    #[test]
    fn an_ntpq_header_alone_proves_no_daemon() {
        // What ntpq prints before it asks for each peer: the header, then the `====` ruler.
        for n in [1, 2] {
            let header = first_lines(NTPQ, n);
            let t = facts(&[("ntpq.txt", &header)]);
            assert!(t.daemons.is_empty(), "{n} lines: {:?}", names(&t));
            assert!(!t.evidence_present, "{n} lines");
            assert!(t.offset_s.is_none());
            // Nor is it evidence that none runs: without a complete process list, unknown.
            assert!(!t.daemons_complete);
        }
    }

    #[test]
    fn an_ntpq_peer_row_proves_ntpd() {
        let t = facts(&[("ntpq.txt", NTPQ)]);
        assert_eq!(names(&t), ["ntpd"]);
        // Cited by the header and the first peer row.
        assert_eq!(t.daemons[0].lines, [1, 3]);
        assert!(t.evidence_present);
    }

    #[test]
    fn a_tracking_answer_proves_chronyd() {
        let t = facts(&[("chronyc-tracking.txt", TRACKING)]);
        assert_eq!(names(&t), ["chronyd"]);
        assert!(!t.daemons_complete);
    }

    #[test]
    fn a_process_row_proves_chronyd_and_a_complete_list_its_absence() {
        let t = facts(&[("ps.txt", PS_CHRONYD)]);
        assert_eq!(names(&t), ["chronyd"]);
        assert!(t.daemons_complete);
        // The whole host's list without a sync daemon: none runs.
        let t = facts(&[("ps.txt", PS_ALL)]);
        assert!(t.daemons.is_empty());
        assert!(t.daemons_complete);
        // A list without PID 1 (one shell's children) says nothing of the others.
        let t = facts(&[("ps.txt", PS_PARTIAL)]);
        assert!(t.daemons.is_empty());
        assert!(!t.daemons_complete);
    }

    #[test]
    fn an_ntpq_header_beside_a_complete_list_leaves_the_list_to_answer() {
        let header = first_lines(NTPQ, 2);
        let t = facts(&[("ntpq.txt", &header), ("ps.txt", PS_ALL)]);
        assert!(t.daemons.is_empty());
        assert!(t.daemons_complete);
    }
}
