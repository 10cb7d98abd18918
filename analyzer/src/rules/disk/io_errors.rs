//! `disk.io-errors`: block I/O errors, offline devices, controller and link resets.
//!
//! Reads the kernel log events: `blk_update_request: I/O error, dev sda, sector …` and the other
//! `blk_errors` texts (`critical medium error, dev sdb`; block/blk-core.c), `Buffer I/O error
//! on dev sda1` (fs/buffer.c), `rejecting I/O to offline device` (drivers/scsi/scsi_lib.c),
//! `nvme nvme0: I/O 123 QID 4 timeout, reset controller` (drivers/nvme/host/pci.c) and `ata1:
//! hard resetting link` (drivers/ata/libata-eh.c).

use crate::facts::klog::{EventKind, KernelEvent};
use crate::facts::{Fact, HostFacts};
use crate::rules::common::finding;
use crate::rules::klog::{at, evidence, relevant, verdict, RECENT, RECENT_S};
use crate::rules::{Area, Check, Limit, RuleMeta, Severity, Source, SymptomGroup, Threshold};

/// Devices whose errors are not storage faults: loop devices (snap squashfs images, whose
/// writes fail by design), optical drives, floppies.
const NOT_STORAGE: &[&str] = &["loop", "sr", "fd"];

/// What the rule checks, why, from which facts, with which thresholds and their sources.
pub static META: RuleMeta = RuleMeta {
    id: "disk.io-errors",
    title: "Block I/O errors or device resets",
    area: Area::Disk,
    severity: Severity::Critical,
    needs: &[Fact::KernelLog],
    reads: &[],
    thresholds: &[
        Threshold {
            name: "I/O error, reset and offline-device messages",
            value: Limit::Any,
            unit: "messages",
            meaning: "any: a request failed or a device was reset (a warning); a medium error or \
                      an offline device: critical (data was not read or written)",
            sources: &[Source::Doc {
                document: "Linux kernel source, block/blk-core.c",
                section: Some("blk_errors[], blk_print_req_error()"),
                url: Some("https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/block/blk-core.c"),
            }],
        },
        Threshold {
            name: "device name prefix",
            value: Limit::OneOf(NOT_STORAGE),
            unit: "",
            meaning: "not counted: loop devices, optical drives and floppies",
            sources: &[Source::Rca(
                "a loop device's errors are its backing file's (read-only snap images refuse \
                 writes); optical and floppy drives fail on missing media",
            )],
        },
        Threshold {
            name: "time before the window",
            value: Limit::Num(RECENT_S),
            unit: "s",
            meaning: "within it (or during the window): as above; older only: information",
            sources: &[RECENT],
        },
    ],
    groups: &[SymptomGroup::Storage],
    explains: &[],
    fires_when: "the kernel log shows block I/O errors, an offline device or a controller or link reset",
    checks: "The kernel log's block-layer, SCSI, NVMe and libata error messages, per device.",
    why: "A failed request returns EIO to the application (a database crash, a read-only \
          remount); timeouts and resets stall every request queued behind them for tens of \
          seconds, which shows as I/O latency and hung tasks before it shows as errors.",
    false_positives: "Errors at boot from a device that was then removed; an SD card or USB \
                      stick pulled while mounted.",
    remedy: "Check the device's health (`smartctl -a`, `nvme smart-log`), its path (multipath, \
             HBA firmware, cabling), and the file system on it; replace failing media.",
    file: file!(),
};

fn device(e: &KernelEvent) -> Option<(&str, &'static str)> {
    match &e.kind {
        EventKind::IoError { device, what }
            if !NOT_STORAGE.iter().any(|p| {
                device
                    .strip_prefix(p)
                    .is_some_and(|r| r.bytes().next().is_some_and(|b| b.is_ascii_digit()))
            }) =>
        {
            Some((device, what))
        }
        _ => None,
    }
}

/// I/O errors and resets of storage devices.
pub fn check(f: &HostFacts) -> Check {
    let Some(log) = f.klog.get() else {
        return Check::NotEvaluated("no kernel log in the bundle".into());
    };
    let all: Vec<_> = log.events.iter().filter(|e| device(e).is_some()).collect();
    if all.is_empty() {
        let other = log.of("io-error").count();
        return Check::Clear(if other > 0 {
            format!("{other} I/O error(s) of loop, optical or floppy devices only")
        } else {
            "no block I/O error or reset in the kernel log".into()
        });
    }
    let ev = relevant(&all);
    let severe = ev
        .iter()
        .any(|e| matches!(device(e), Some((_, "medium error" | "offline device"))));
    let v = verdict(
        &all,
        if severe {
            Severity::Critical
        } else {
            Severity::Warning
        },
        log,
    );
    let mut devs: Vec<&str> = ev.iter().filter_map(|e| device(e).map(|d| d.0)).collect();
    devs.sort_unstable();
    devs.dedup();
    let mut whats: Vec<&str> = ev.iter().filter_map(|e| device(e).map(|d| d.1)).collect();
    whats.sort_unstable();
    whats.dedup();
    let n = ev.len();
    Check::Found(vec![crate::rules::klog::ranged(
        finding(
            &META,
            v.severity,
            v.confidence,
            format!(
                "{n} block I/O {} on {} {}",
                if n == 1 { "error" } else { "errors" },
                devs.join(", "),
                v.when
            ),
            format!(
                "The kernel logged {} for {}; the last at {}.",
                whats.join(", "),
                devs.join(", "),
                at(ev[n - 1], log)
            ),
            evidence(&ev, "I/O error messages"),
            n as f64 * 10.0,
        ),
        &ev,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::klog::testkit::{ev, facts};
    use crate::rules::testkit::{found, is_clear, is_not_evaluated};

    fn io(dev: &str, what: &'static str, line: usize) -> KernelEvent {
        ev(
            EventKind::IoError {
                device: dev.into(),
                what,
            },
            Some(60.0),
            line,
            "blk_update_request: I/O error, dev sdk, sector 130611915",
        )
    }

    #[test]
    fn fires_on_a_disk_error() {
        let v = found(check(&facts(vec![io("sdk", "I/O error", 4)])));
        assert_eq!(v[0].severity, Severity::Warning);
        assert_eq!(
            v[0].title,
            "1 block I/O error on sdk during or within an hour before the collection window"
        );
    }

    #[test]
    fn fires_critical_on_a_medium_error() {
        let v = found(check(&facts(vec![io("sdb", "medium error", 6)])));
        assert_eq!(v[0].severity, Severity::Critical);
    }

    #[test]
    fn clear_on_loop_device_errors() {
        assert!(is_clear(&check(&facts(vec![io("loop11", "I/O error", 2)]))));
    }

    #[test]
    fn not_evaluated_without_a_kernel_log() {
        assert!(is_not_evaluated(&check(&HostFacts::default())));
    }
}
