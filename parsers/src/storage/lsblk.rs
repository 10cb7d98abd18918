//! util-linux `lsblk`: the block-device tree, as JSON (`lsblk -J`, util-linux ≥ 2.27) or as the
//! text table (`lsblk`, `lsblk -b -o NAME,KNAME,TYPE,SIZE,MOUNTPOINT`, its tree form and the
//! `-l` list form).
//!
//! JSON: `{"blockdevices": [ {…, "children": [ … ]} ]}`, each device an object whose keys are
//! the lower-cased column names (`name`, `kname`, `maj:min`, `rm`, `size`, `ro`, `type`,
//! `mountpoint`, `rota`, `sched`). Versions differ in the value types: before util-linux 2.33
//! every value is a string (`"rm": "0"`, `"size": "128G"`, `"size": "67108864"` with `-b`); from
//! 2.33 on flags are booleans and `-b` sizes numbers (`"rm": false`, `"size": 67108864`); from
//! 2.37 the default column is `mountpoints`, an array (`[null]` when unmounted), in place of
//! `mountpoint`. All are read. Seen: util-linux 2.38.1 (Debian 12, captured), and the
//! string-valued form as printed by an older util-linux (`lsblk --paths --json`, quoted in
//! Ceph's ceph-volume tests).
//!
//! Text: a header of column names, then one device per line; in the default tree form a child's
//! name is prefixed by tree glyphs, `├─`/`└─`/`│` (UTF-8 locales) or `|-`/`` `- ``/`|` (the C
//! locale, as sosreport runs it), two columns per level. A device with several parents (a
//! bcache or md device over two disks) is printed under each of them. `-l` prints no glyphs and
//! no nesting. Only the last column (`MOUNTPOINT`) may be empty. Seen: util-linux 2.23.2 (CentOS
//! 7.7, UTF-8 glyphs), 2.34 (Ubuntu 20.04 sosreports, ASCII glyphs, LVM over crypt over bcache),
//! 2.38.1 (captured).
//!
//! Device-mapper devices (`type` `lvm`, `crypt`, `mpath`, `dm`) are named by their mapping
//! (`centos-root`); their kernel name, the one `iostat` and `/proc/diskstats` print, is `dm-`
//! followed by the minor number, which [`BlockDevice::kernel_name`] derives when `kname` was not
//! printed.
//!
//! Sample input (`lsblk`, util-linux 2.23.2):
//! ```text
//! NAME            MAJ:MIN RM  SIZE RO TYPE MOUNTPOINT
//! sda               8:0    0   20G  0 disk
//! └─sda2            8:2    0   19G  0 part
//!   ├─centos-root 253:0    0   17G  0 lvm  /
//! ```

use crate::common::{
    excerpt, first_non_blank, head_lines, numbered_lines, split_last, Issues, ParseError, Parsed,
    Sniff,
};
use serde::Serialize;
use serde_json::Value;

/// The devices of one `lsblk` run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lsblk {
    /// Which output form it was read from.
    pub format: LsblkFormat,
    /// Every printed device occurrence, in output order (a parent before its children).
    pub devices: Vec<BlockDevice>,
}

/// The output form of `lsblk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LsblkFormat {
    /// `lsblk -J`.
    Json,
    /// The text table (tree or `-l` list).
    Text,
}

/// One device as printed (a device under two parents is printed, and kept, twice).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockDevice {
    /// 1-based input line (of the `name` key in JSON).
    pub line: usize,
    /// `NAME` without tree glyphs (`sda1`, `centos-root`, `/dev/sda` with `--paths`).
    pub name: String,
    /// `KNAME`, when printed.
    pub kname: Option<String>,
    /// `MAJ:MIN`, when printed.
    pub maj_min: Option<String>,
    /// `TYPE` (`disk`, `part`, `lvm`, `crypt`, `raid1`, `mpath`, `loop`, `rom`), when printed.
    pub dev_type: Option<String>,
    /// `SIZE` in bytes (exact with `-b`, else rounded as printed: `20G`), when printed.
    pub size_bytes: Option<u64>,
    /// `ROTA`: rotational (spinning) device, when printed.
    pub rota: Option<bool>,
    /// `SCHED`: the I/O scheduler, when printed.
    pub sched: Option<String>,
    /// `MOUNTPOINT` / `MOUNTPOINTS` (`[SWAP]` for swap), empty when not mounted.
    pub mountpoints: Vec<String>,
    /// Index in [`Lsblk::devices`] of the device this one was printed under.
    pub parent: Option<usize>,
}

/// Device-mapper types: named by their mapping, kernel name `dm-<minor>`.
const DM_TYPES: &[&str] = &["lvm", "crypt", "mpath", "dm"];

impl BlockDevice {
    /// The kernel name (`sda`, `dm-0`): `KNAME` when printed; else `dm-<minor>` for a
    /// device-mapper type with a `MAJ:MIN`; else `NAME` without a `/dev/` or `/dev/mapper/`
    /// prefix.
    pub fn kernel_name(&self) -> String {
        if let Some(k) = &self.kname {
            return k.trim_start_matches("/dev/").to_string();
        }
        if self
            .dev_type
            .as_deref()
            .is_some_and(|t| DM_TYPES.contains(&t))
        {
            if let Some((_, minor)) = self.maj_min.as_deref().and_then(|m| m.split_once(':')) {
                if !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()) {
                    return format!("dm-{minor}");
                }
            }
        }
        let n = self.name.trim_start_matches("/dev/mapper/");
        n.trim_start_matches("/dev/").to_string()
    }

    /// A device-mapper device (LVM, dm-crypt, multipath).
    pub fn is_device_mapper(&self) -> bool {
        self.dev_type
            .as_deref()
            .is_some_and(|t| DM_TYPES.contains(&t))
    }
}

/// A size as lsblk prints it: bytes (`-b`), or `20G`, `61.9M`, `0B`, `1024M` (powers of 1024).
fn size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match split_last(s)? {
        (n, 'B') => (n, 1u64),
        (n, 'K') => (n, 1 << 10),
        (n, 'M') => (n, 1 << 20),
        (n, 'G') => (n, 1 << 30),
        (n, 'T') => (n, 1 << 40),
        (n, 'P') => (n, 1 << 50),
        (n, 'E') => (n, 1 << 60),
        _ => (s, 1),
    };
    if num.is_empty()
        || !num
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return None;
    }
    if mult == 1 {
        return num.parse().ok();
    }
    let v: f64 = num.replace(',', ".").parse().ok()?;
    let b = v * mult as f64;
    (b.is_finite() && b >= 0.0 && b < u64::MAX as f64).then_some(b as u64)
}

/// A flag: `true`/`false` (≥ 2.33) or `"1"`/`"0"` (older).
fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "1" => Some(true),
        Value::String(s) if s == "0" => Some(false),
        Value::Number(n) => n.as_u64().map(|n| n != 0),
        _ => None,
    }
}

/// A string value (`null` → `None`).
fn string(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// Tree glyphs at the start of a NAME cell: the name after them and the nesting depth.
fn strip_tree(cell: &str) -> (&str, usize) {
    let mut rest = cell;
    let mut cols = 0usize;
    while let Some(c) = rest.chars().next() {
        // `-` only inside a glyph (`|-`, `` `- ``): a name may start with `-` only after one.
        let glyph = matches!(c, '├' | '└' | '│' | '─' | '|' | '`' | ' ') || (c == '-' && cols > 0);
        if !glyph {
            break;
        }
        rest = rest.strip_prefix(c).unwrap_or("");
        cols += 1;
    }
    (rest, cols / 2)
}

/// The columns of a text header, or `None` if it is not an `lsblk` header.
fn text_header(line: &str) -> Option<Vec<String>> {
    let cols: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    let has = |c: &str| cols.iter().any(|x| x == c);
    (cols.first().is_some_and(|c| c == "NAME")
        && (has("MAJ:MIN") || has("KNAME"))
        && has("TYPE")
        && !has("PRIO"))
    .then_some(cols)
}

/// An `lsblk` output?
///
/// `Yes` for JSON whose first key is `"blockdevices"`, and for a text header that starts with
/// `NAME` and has `TYPE` and `MAJ:MIN` or `KNAME` (which `swapon --show` and `lsblk -f`/`-t`
/// headers do not).
pub fn sniff(head: &str) -> Sniff {
    if first_non_blank(head) == Some(b'{') {
        let compact: String = head
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(20)
            .collect();
        return if compact.starts_with("{\"blockdevices\":") {
            Sniff::Yes
        } else if "{\"blockdevices\":".starts_with(&compact) {
            Sniff::Unsure
        } else {
            Sniff::No
        };
    }
    for (line, complete) in head_lines(head) {
        if line.trim().is_empty() {
            continue;
        }
        if !complete {
            let t = line.trim_start();
            return if t.starts_with("NAME ") {
                Sniff::Unsure
            } else {
                Sniff::No
            };
        }
        return if text_header(line).is_some() {
            Sniff::Yes
        } else {
            Sniff::No
        };
    }
    Sniff::No
}

/// Parses `lsblk` output (JSON or text, told apart by the first character).
///
/// Errors: [`ParseError::Unusable`] for JSON that does not parse or has no `blockdevices`
/// array, and for text without an `lsblk` header or without any device line.
pub fn parse(text: &str) -> Result<Parsed<Lsblk>, ParseError> {
    if first_non_blank(text) == Some(b'{') {
        parse_json(text)
    } else {
        parse_text(text)
    }
}

fn parse_json(text: &str) -> Result<Parsed<Lsblk>, ParseError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| ParseError::unusable(Some(e.line()), format!("not JSON: {e}")))?;
    let Some(list) = v.get("blockdevices").and_then(Value::as_array) else {
        return Err(ParseError::unusable(None, "no `blockdevices` array"));
    };
    // The lines of the `"name"` keys, in document order: the devices' order in a pre-order walk.
    let name_lines: Vec<usize> = numbered_lines(text)
        .flat_map(|(n, l)| std::iter::repeat_n(n, l.matches("\"name\"").count()))
        .collect();
    let mut issues = Issues::default();
    let mut devices = Vec::new();
    fn walk(
        list: &[Value],
        parent: Option<usize>,
        out: &mut Vec<BlockDevice>,
        lines: &[usize],
        issues: &mut Issues,
        depth: usize,
    ) {
        for d in list {
            let line = lines.get(out.len()).copied().unwrap_or(0);
            let Some(name) = string(d.get("name")) else {
                issues.push(line, || "a device without a `name`".to_string());
                continue;
            };
            let size_bytes = match d.get("size") {
                Some(Value::Number(n)) => n.as_u64(),
                Some(Value::String(s)) => size(s),
                _ => None,
            };
            let mut mountpoints: Vec<String> = Vec::new();
            if let Some(Value::Array(a)) = d.get("mountpoints") {
                mountpoints.extend(a.iter().filter_map(|m| m.as_str().map(str::to_string)));
            }
            if let Some(m) = string(d.get("mountpoint")) {
                mountpoints.push(m);
            }
            let idx = out.len();
            out.push(BlockDevice {
                line,
                name,
                kname: string(d.get("kname")),
                maj_min: string(d.get("maj:min")),
                dev_type: string(d.get("type")),
                size_bytes,
                rota: d.get("rota").and_then(flag),
                sched: string(d.get("sched")),
                mountpoints,
                parent,
            });
            if let Some(Value::Array(children)) = d.get("children") {
                if depth < 64 {
                    walk(children, Some(idx), out, lines, issues, depth + 1);
                }
            }
        }
    }
    walk(list, None, &mut devices, &name_lines, &mut issues, 0);
    Ok(Parsed {
        value: Lsblk {
            format: LsblkFormat::Json,
            devices,
        },
        issues: issues.into_vec(),
    })
}

fn parse_text(text: &str) -> Result<Parsed<Lsblk>, ParseError> {
    let mut issues = Issues::default();
    let mut lines = numbered_lines(text).skip_while(|(_, l)| l.trim().is_empty());
    let Some((hl, h)) = lines.next() else {
        return Err(ParseError::unusable(None, "empty input"));
    };
    let Some(cols) = text_header(h) else {
        return Err(ParseError::unusable(
            Some(hl),
            format!(
                "expected an `lsblk` header (`NAME … TYPE …`), found `{}`",
                excerpt(h)
            ),
        ));
    };
    let at = |name: &str| cols.iter().position(|c| c == name);
    let mount_col = at("MOUNTPOINT").or_else(|| at("MOUNTPOINTS"));
    let mut devices: Vec<BlockDevice> = Vec::new();
    // The device last seen at each depth: the parent of the next one a level deeper.
    let mut stack: Vec<usize> = Vec::new();
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let (rest, depth) = strip_tree(line);
        let cells: Vec<&str> = rest.split_whitespace().collect();
        // A further mount point of the previous device (`MOUNTPOINTS`, one per line).
        if cells.len() == 1 && cells[0].starts_with('/') && rest.len() < line.len() {
            if let Some(last) = devices.last_mut() {
                last.mountpoints.push(cells[0].to_string());
                continue;
            }
        }
        let needed = cols.len() - usize::from(mount_col == Some(cols.len() - 1));
        if cells.len() < needed || cells.len() > cols.len() {
            issues.push(n, || {
                format!("expected {} columns, found `{}`", cols.len(), excerpt(line))
            });
            continue;
        }
        let cell = |name: &str| at(name).and_then(|i| cells.get(i)).map(|s| s.to_string());
        stack.truncate(depth);
        let parent = if depth > 0 {
            stack.last().copied()
        } else {
            None
        };
        let mountpoints = mount_col
            .and_then(|i| cells.get(i..))
            .map(|m| m.join(" "))
            .filter(|m| !m.is_empty())
            .into_iter()
            .collect();
        let idx = devices.len();
        devices.push(BlockDevice {
            line: n,
            name: cells[0].to_string(),
            kname: cell("KNAME"),
            maj_min: cell("MAJ:MIN"),
            dev_type: cell("TYPE"),
            size_bytes: cell("SIZE").and_then(|s| size(&s)),
            rota: cell("ROTA").and_then(|s| match s.as_str() {
                "1" => Some(true),
                "0" => Some(false),
                _ => None,
            }),
            sched: cell("SCHED"),
            mountpoints,
            parent,
        });
        while stack.len() < depth {
            stack.push(idx);
        }
        stack.push(idx);
    }
    if devices.is_empty() {
        return Err(ParseError::unusable(
            Some(hl),
            "an `lsblk` header without any device line",
        ));
    }
    Ok(Parsed {
        value: Lsblk {
            format: LsblkFormat::Text,
            devices,
        },
        issues: issues.into_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev<'a>(l: &'a Lsblk, name: &str) -> &'a BlockDevice {
        l.devices.iter().find(|d| d.name == name).unwrap()
    }

    #[test]
    fn reads_json_of_2_38_with_numbers_and_booleans() {
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-J-b.util-linux-2.38.1.json"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let l = &p.value;
        assert_eq!(l.format, LsblkFormat::Json);
        let d = dev(l, "loop0");
        assert_eq!(d.size_bytes, Some(67_108_864));
        assert_eq!(d.mountpoints, ["/srv/fsblk/data"]);
        assert_eq!(d.line, 4);
        assert!(dev(l, "zram0").mountpoints.is_empty());
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-J-b-o-rota.util-linux-2.38.1.json"
        ))
        .unwrap();
        let v = dev(&p.value, "vda");
        assert_eq!(v.rota, Some(true));
        assert_eq!(v.sched.as_deref(), Some("mq-deadline"));
        assert_eq!(v.mountpoints, ["/"]);
    }

    #[test]
    fn reads_string_valued_json_with_lvm_children() {
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-paths-json.ceph-volume-test.json"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let l = &p.value;
        let lv = dev(l, "/dev/mapper/ceph--osd--block--1");
        assert_eq!(lv.kernel_name(), "dm-0");
        assert_eq!(lv.size_bytes, Some(512 << 30));
        assert_eq!(l.devices[lv.parent.unwrap()].kernel_name(), "sdd");
        assert_eq!(dev(l, "/dev/sda3").mountpoints, ["/etc/hosts"]);
    }

    #[test]
    fn reads_unicode_and_ascii_trees() {
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk.centos-7.7.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let l = &p.value;
        let root = dev(l, "centos-root");
        assert_eq!(root.kernel_name(), "dm-0");
        assert_eq!(root.mountpoints, ["/"]);
        assert_eq!(l.devices[root.parent.unwrap()].name, "sda2");
        assert_eq!(l.devices[dev(l, "sda2").parent.unwrap()].name, "sda");
        assert_eq!(dev(l, "sr0").parent, None);
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk.sos-ubuntu-20.04-bcache"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let l = &p.value;
        let crypt: Vec<_> = l
            .devices
            .iter()
            .filter(|d| d.name == "crypt-88244ad9-372d-427e-9d82-c411c73d900a")
            .collect();
        assert_eq!(
            crypt.len(),
            2,
            "printed under bcache0 twice: via vdb2 and via vdd"
        );
        assert_eq!(crypt[0].kernel_name(), "dm-2");
        assert_eq!(crypt[0].mountpoints, ["/var/lib/nova/instances"]);
        let parents: Vec<&str> = crypt
            .iter()
            .map(|c| l.devices[c.parent.unwrap()].name.as_str())
            .collect();
        assert_eq!(parents, ["bcache0", "bcache0"]);
        let b0: Vec<_> = l
            .devices
            .iter()
            .filter(|d| d.name == "bcache0")
            .map(|d| l.devices[d.parent.unwrap()].name.as_str())
            .collect();
        assert_eq!(b0, ["vdb2", "vdd"]);
    }

    #[test]
    fn reads_list_and_chosen_columns() {
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-b-o.util-linux-2.38.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let v = dev(&p.value, "vda");
        assert_eq!(v.size_bytes, Some(274_877_906_944));
        assert_eq!(v.kname.as_deref(), Some("vda"));
        assert!(dev(&p.value, "zram0").mountpoints.is_empty());
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-l.util-linux-2.38.1.txt"
        ))
        .unwrap();
        assert_eq!(dev(&p.value, "loop3").size_bytes, Some(4096));
    }

    #[test]
    fn sniffs_json_and_headers_not_swapon() {
        assert_eq!(sniff("{\n   \"blockdevices\": [\n"), Sniff::Yes);
        assert_eq!(
            sniff("NAME  MAJ:MIN RM  SIZE RO TYPE MOUNTPOINTS\n"),
            Sniff::Yes
        );
        assert_eq!(sniff("NAME      TYPE      SIZE USED PRIO\n"), Sniff::No);
        assert_eq!(sniff("{\"sysstat\": {}}\n"), Sniff::No);
    }
}
