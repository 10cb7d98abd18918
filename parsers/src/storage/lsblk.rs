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
//! no nesting. Any cell may be blank (`MOUNTPOINT`, `FSTYPE`, `LABEL`, `MODEL`, `SCHED` of a
//! device-mapper device), and `LABEL`, `MODEL` and `VENDOR` may hold blanks, so cells are read
//! by the header's positions, in display columns (a tree glyph is one column of three bytes):
//! numeric columns are right-aligned under their header (`RIGHT_ALIGNED`), the others
//! left-aligned. A blank cell is `None`. With `MOUNTPOINTS` (2.37+) a device's further mount
//! points follow on lines of their own, blank but for that column. Seen: util-linux 2.23.2
//! (CentOS 7.7, UTF-8 glyphs, and with every column, `lsblk -o` of all of them), 2.31 (Ubuntu
//! 18.04, every column), 2.34 (Ubuntu 20.04 sosreports, ASCII glyphs, LVM over crypt over
//! bcache), 2.38.1 (captured, also `lsblk -a -o NAME,` and every other column).
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
use unicode_width::UnicodeWidthChar;

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

/// One device as printed (a device under two parents is printed, and kept, twice). A column
/// that was not printed, or printed empty (an unmounted device's `MOUNTPOINT`, a partition's
/// `MODEL`), is `None`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockDevice {
    /// 1-based input line (of the `name` key in JSON).
    pub line: usize,
    /// `NAME` without tree glyphs (`sda1`, `centos-root`, `/dev/sda` with `--paths`).
    pub name: String,
    /// `KNAME`: the kernel name (`dm-0`).
    pub kname: Option<String>,
    /// `PKNAME`: the parent's kernel name (`sda` for `sda1`).
    pub pkname: Option<String>,
    /// `MAJ:MIN`.
    pub maj_min: Option<String>,
    /// `TYPE` (`disk`, `part`, `lvm`, `crypt`, `raid1`, `mpath`, `loop`, `rom`).
    pub dev_type: Option<String>,
    /// `SIZE` in bytes (exact with `-b`, else rounded as printed: `20G`).
    pub size_bytes: Option<u64>,
    /// `RM`: removable device.
    pub rm: Option<bool>,
    /// `RO`: read-only device.
    pub ro: Option<bool>,
    /// `ROTA`: rotational (spinning) device.
    pub rota: Option<bool>,
    /// `SCHED`: the I/O scheduler (`mq-deadline`, `none`).
    pub sched: Option<String>,
    /// `RQ-SIZE`: the request queue size (requests).
    pub rq_size: Option<u64>,
    /// `RA`: read-ahead, KiB.
    pub ra_kib: Option<u64>,
    /// `MIN-IO`: minimum I/O size, bytes.
    pub min_io: Option<u64>,
    /// `OPT-IO`: optimal I/O size, bytes (0: none reported).
    pub opt_io: Option<u64>,
    /// `PHY-SEC`: physical sector size, bytes.
    pub phy_sec: Option<u64>,
    /// `LOG-SEC`: logical sector size, bytes.
    pub log_sec: Option<u64>,
    /// `DISC-GRAN`: discard granularity, bytes (0: no discard).
    pub disc_gran_bytes: Option<u64>,
    /// `DISC-MAX`: discard maximum, bytes (0: no discard).
    pub disc_max_bytes: Option<u64>,
    /// `FSTYPE` (`xfs`, `LVM2_member`, `swap`).
    pub fstype: Option<String>,
    /// `LABEL`: the filesystem label.
    pub label: Option<String>,
    /// `UUID`: the filesystem UUID.
    pub uuid: Option<String>,
    /// `MODEL`: the device identifier.
    pub model: Option<String>,
    /// `SERIAL`: the disk serial number.
    pub serial: Option<String>,
    /// `VENDOR`: the device vendor.
    pub vendor: Option<String>,
    /// `REV`: the device revision.
    pub rev: Option<String>,
    /// `STATE` (`running`, `live`).
    pub state: Option<String>,
    /// `TRAN`: the transport (`sata`, `nvme`, `spi`, `usb`).
    pub tran: Option<String>,
    /// `HCTL`: SCSI host:channel:target:lun.
    pub hctl: Option<String>,
    /// `MOUNTPOINT` / `MOUNTPOINTS` (`[SWAP]` for swap), empty when not mounted.
    pub mountpoints: Vec<String>,
    /// Index in [`Lsblk::devices`] of the device this one was printed under.
    pub parent: Option<usize>,
}

/// Columns util-linux right-aligns, header and cells (`SCOLS_FL_RIGHT` in the `infos[]` table of
/// `lsblk-cmd/lsblk.c`, `TT_FL_RIGHT` in `misc-utils/lsblk.c` of 2.23): every other column is
/// left-aligned. The union over versions; a column's alignment did not change between them.
const RIGHT_ALIGNED: &[&str] = &[
    "ALIGNMENT",
    "DISC-ALN",
    "DAX",
    "DISC-GRAN",
    "DISK-SEQ",
    "DISC-MAX",
    "DISC-ZERO",
    "FSAVAIL",
    "FSSIZE",
    "FSUSED",
    "FSUSE%",
    "HOTPLUG",
    "LOG-SEC",
    "MIN-IO",
    "MQ",
    "OPT-IO",
    "PARTN",
    "PHY-SEC",
    "RAND",
    "RA",
    "REV",
    "RM",
    "ROTA",
    "RO",
    "RQ-SIZE",
    "SIZE",
    "START",
    "WSAME",
    "ZONE-SZ",
    "ZONE-WGRAN",
    "ZONE-APP",
    "ZONE-NR",
    "ZONE-OMAX",
    "ZONE-AMAX",
];

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

/// A flag as printed (`1`/`0`) or as JSON gives it (`true`/`false`, `"1"`/`"0"`).
fn flag(s: &str) -> Option<bool> {
    match s {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// A JSON value as text: strings as they are, booleans and numbers as printed, `null` and an
/// empty string as `None`.
fn json_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A device from its cells: `get` gives a column's value by its header name (`MAJ:MIN`,
/// `PHY-SEC`), `None` when not printed or empty.
fn device(
    line: usize,
    name: String,
    parent: Option<usize>,
    mountpoints: Vec<String>,
    get: impl Fn(&str) -> Option<String>,
) -> BlockDevice {
    let bytes = |c: &str| get(c).and_then(|s| size(&s));
    let number = |c: &str| get(c).and_then(|s| s.trim().parse().ok());
    let boolean = |c: &str| get(c).and_then(|s| flag(s.trim()));
    BlockDevice {
        line,
        name,
        kname: get("KNAME"),
        pkname: get("PKNAME"),
        maj_min: get("MAJ:MIN"),
        dev_type: get("TYPE"),
        size_bytes: bytes("SIZE"),
        rm: boolean("RM"),
        ro: boolean("RO"),
        rota: boolean("ROTA"),
        sched: get("SCHED"),
        rq_size: number("RQ-SIZE"),
        ra_kib: number("RA"),
        min_io: number("MIN-IO"),
        opt_io: number("OPT-IO"),
        phy_sec: number("PHY-SEC"),
        log_sec: number("LOG-SEC"),
        disc_gran_bytes: bytes("DISC-GRAN"),
        disc_max_bytes: bytes("DISC-MAX"),
        fstype: get("FSTYPE"),
        label: get("LABEL"),
        uuid: get("UUID"),
        model: get("MODEL"),
        serial: get("SERIAL"),
        vendor: get("VENDOR"),
        rev: get("REV"),
        state: get("STATE"),
        tran: get("TRAN"),
        hctl: get("HCTL"),
        mountpoints,
        parent,
    }
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

/// A line laid out in display columns, as libsmartcols measures it: a wide character takes two
/// columns, a combining one none; `spans[i]` is the byte range of column `i` (the second column
/// of a wide character is empty).
struct Layout<'a> {
    text: &'a str,
    spans: Vec<(usize, usize)>,
}

impl<'a> Layout<'a> {
    fn new(text: &'a str) -> Self {
        let mut spans: Vec<(usize, usize)> = Vec::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            let end = i + c.len_utf8();
            match UnicodeWidthChar::width(c) {
                Some(0) => match spans.last_mut() {
                    Some(last) => last.1 = end,
                    None => spans.push((i, end)),
                },
                Some(2) => {
                    spans.push((i, end));
                    spans.push((end, end));
                }
                _ => spans.push((i, end)),
            }
        }
        Layout { text, spans }
    }

    /// Whether column `i` holds a blank (or lies past the end).
    fn blank(&self, i: usize) -> bool {
        self.spans
            .get(i)
            .is_none_or(|&(a, b)| self.text.get(a..b).unwrap_or("").trim().is_empty())
    }

    /// The text of columns `from..to` (clamped to the line).
    fn slice(&self, from: usize, to: usize) -> &'a str {
        let to = to.min(self.spans.len());
        if from >= to {
            return "";
        }
        self.text
            .get(self.spans[from].0..self.spans[to - 1].1)
            .unwrap_or("")
    }
}

/// One header column: its name, its display columns `start..end`, and its alignment.
struct HeaderCol {
    name: String,
    start: usize,
    end: usize,
    right: bool,
}

/// The columns of a header line, by position.
fn header_cols(line: &str) -> Vec<HeaderCol> {
    let layout = Layout::new(line);
    let mut cols = Vec::new();
    let mut i = 0;
    while i < layout.spans.len() {
        if layout.blank(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i < layout.spans.len() && !layout.blank(i) {
            i += 1;
        }
        let name = layout.slice(start, i).to_string();
        let right = RIGHT_ALIGNED.contains(&name.as_str());
        cols.push(HeaderCol {
            name,
            start,
            end: i,
            right,
        });
    }
    cols
}

/// The cells of a data line under `cols` (`None` for a blank cell; a left-aligned one keeps
/// its leading blanks), and whether text was left
/// outside every cell (a line longer than the header).
///
/// libsmartcols pads every column to its widest cell, header included, and separates columns
/// by one space: a left-aligned column starts where its header starts and ends before the next
/// column starts; a right-aligned one ends where its header ends and, holding a number or a
/// size, has no blank inside. So a right-aligned cell is the last word before its header's end,
/// if that word reaches into the header's span, and a left-aligned cell runs from its header's
/// start to the next column's cell (or header, whichever is first).
fn cells<'a>(line: &'a str, cols: &[HeaderCol]) -> (Vec<Option<&'a str>>, bool) {
    let layout = Layout::new(line);
    let n = cols.len();
    // The first column of each right-aligned cell that is not blank.
    let mut right_start: Vec<Option<usize>> = vec![None; n];
    let mut out: Vec<Option<&str>> = vec![None; n];
    for (i, c) in cols.iter().enumerate().filter(|(_, c)| c.right) {
        let lower = if i == 0 { 0 } else { cols[i - 1].end + 1 };
        let Some(last) = (lower..c.end).rev().find(|&k| !layout.blank(k)) else {
            continue;
        };
        if last < c.start {
            continue;
        }
        let mut first = last;
        while first > lower && !layout.blank(first - 1) {
            first -= 1;
        }
        right_start[i] = Some(first);
        out[i] = Some(layout.slice(first, last + 1).trim());
    }
    for (i, c) in cols.iter().enumerate().filter(|(_, c)| !c.right) {
        let end = match cols.get(i + 1) {
            Some(next) => right_start[i + 1].map_or(next.start, |r| r.min(next.start)),
            None => usize::MAX,
        };
        // Trimmed at the end only: the leading blanks of a tree's NAME are its depth.
        let cell = layout.slice(c.start, end).trim_end();
        out[i] = (!cell.is_empty()).then_some(cell);
    }
    let past_end = cols
        .last()
        .is_some_and(|c| c.right && (c.end..layout.spans.len()).any(|k| !layout.blank(k)));
    (out, past_end)
}

/// The columns of a text header, or `None` if it is not an `lsblk` header.
fn text_header(line: &str) -> Option<Vec<HeaderCol>> {
    let cols = header_cols(line);
    let has = |name: &str| cols.iter().any(|c| c.name == name);
    (cols.first().is_some_and(|c| c.name == "NAME")
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
            let Some(name) = json_text(d.get("name")) else {
                issues.push(line, || "a device without a `name`".to_string());
                continue;
            };
            // `-O -J` prints both keys: `mountpoints` (2.37+) has them all.
            let mountpoints: Vec<String> = match (d.get("mountpoints"), d.get("mountpoint")) {
                (Some(Value::Array(a)), _) => a
                    .iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect(),
                (_, m) => json_text(m).into_iter().collect(),
            };
            let idx = out.len();
            out.push(device(line, name, parent, mountpoints, |c| {
                json_text(d.get(c.to_ascii_lowercase().as_str()))
            }));
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
    let at = |name: &str| cols.iter().position(|c| c.name == name);
    let name_col = at("NAME").unwrap_or(0);
    let mount_col = at("MOUNTPOINTS").or_else(|| at("MOUNTPOINT"));
    let mut devices: Vec<BlockDevice> = Vec::new();
    // The device last seen at each depth: the parent of the next one a level deeper.
    let mut stack: Vec<usize> = Vec::new();
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let (cells, past_end) = cells(line, &cols);
        if past_end {
            issues.push(n, || {
                format!("text past the last column in `{}`", excerpt(line))
            });
        }
        let (name, depth) = strip_tree(cells[name_col].unwrap_or(""));
        let mount = mount_col.and_then(|i| cells[i]).map(str::trim_start);
        if name.is_empty() {
            // A further mount point of the previous device (`MOUNTPOINTS`, one per line).
            if let (Some(m), Some(last)) = (mount, devices.last_mut()) {
                last.mountpoints.push(m.to_string());
            } else {
                issues.push(n, || format!("no device name in `{}`", excerpt(line)));
            }
            continue;
        }
        stack.truncate(depth);
        let parent = if depth > 0 {
            stack.last().copied()
        } else {
            None
        };
        let idx = devices.len();
        let mountpoints = mount.map(str::to_string).into_iter().collect();
        devices.push(device(n, name.to_string(), parent, mountpoints, |c| {
            at(c)
                .and_then(|i| cells[i])
                .map(|s| s.trim_start().to_string())
        }));
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
    fn reads_every_column_by_position_with_blank_cells() {
        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-allcols.centos-7.7.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let l = &p.value;
        assert_eq!(l.devices.len(), 6);
        let sda = dev(l, "sda");
        assert!(sda.mountpoints.is_empty());
        assert_eq!(sda.fstype, None);
        assert_eq!(sda.uuid, None);
        assert_eq!(sda.ra_kib, Some(4096));
        assert_eq!(sda.model.as_deref(), Some("VMware Virtual S"));
        assert_eq!(sda.serial, None);
        assert_eq!(sda.state.as_deref(), Some("running"));
        assert_eq!(sda.hctl.as_deref(), Some("0:0:0:0"));
        assert_eq!(sda.tran.as_deref(), Some("spi"));
        assert_eq!(sda.rev.as_deref(), Some("1.0"));
        assert_eq!(sda.vendor.as_deref(), Some("VMware,"));
        assert_eq!(sda.disc_max_bytes, Some(0));
        let sda1 = dev(l, "sda1");
        assert_eq!(sda1.mountpoints, ["/boot"]);
        assert_eq!(sda1.fstype.as_deref(), Some("xfs"));
        assert_eq!(sda1.label, None);
        assert_eq!(sda1.model, None);
        assert_eq!(sda1.state, None);
        assert_eq!(sda1.pkname.as_deref(), Some("sda"));
        assert_eq!(sda1.hctl, None);
        let root = dev(l, "centos-root");
        assert_eq!(root.kname.as_deref(), Some("dm-0"));
        assert_eq!(root.sched, None);
        assert_eq!(root.rota, Some(true));
        assert_eq!(root.rq_size, Some(128));
        assert_eq!(l.devices[root.parent.unwrap()].name, "sda2");
        let sr0 = dev(l, "sr0");
        assert_eq!(sr0.rm, Some(true));
        assert_eq!(sr0.size_bytes, Some(1 << 30));
        assert_eq!(sr0.serial.as_deref(), Some("10000000000000000001"));
        assert_eq!(sr0.rev.as_deref(), Some("1.00"));

        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-allcols.ubuntu-18.04.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let sr1 = dev(&p.value, "sr1");
        assert_eq!(
            sr1.label.as_deref(),
            Some("Ubuntu-Server 18.04.3 LTS amd64")
        );
        assert_eq!(sr1.uuid.as_deref(), Some("2019-08-05-20-00-00-00"));
        assert!(sr1.mountpoints.is_empty());
        let sda1 = dev(&p.value, "sda1");
        assert_eq!(sda1.fstype, None);
        assert_eq!(sda1.uuid, None);

        let p = parse(include_str!(
            "../../tests/fixtures/lsblk/lsblk-a-o-allcols.util-linux-2.38.1.txt"
        ))
        .unwrap();
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        let vda = dev(&p.value, "vda");
        assert_eq!(vda.mountpoints, ["/"]);
        assert_eq!(vda.sched.as_deref(), Some("mq-deadline"));
        assert_eq!(vda.ra_kib, Some(8192));
        assert_eq!(vda.maj_min.as_deref(), Some("254:0"));
        assert_eq!(vda.opt_io, Some(0));
        let z = dev(&p.value, "zram0");
        assert_eq!(z.sched, None);
        assert!(z.mountpoints.is_empty());
        assert_eq!(z.disc_max_bytes, Some(2 << 40));
    }

    #[test]
    fn ragged_rows_tabs_and_wide_characters_neither_panic_nor_shift() {
        let head = "NAME   MAJ:MIN RM  SIZE RO TYPE MOUNTPOINT LABEL\n";
        // Shorter than the header: the missing cells are blank.
        let p = parse(&format!("{head}sda      8:0    0   20G\n")).unwrap();
        let d = &p.value.devices[0];
        assert_eq!(d.size_bytes, Some(20 << 30));
        assert_eq!((d.ro, d.dev_type.as_deref()), (None, None));
        // Longer, with a tab and a label of wide characters.
        let p = parse(&format!(
            "{head}sda      8:0    0   20G  0 disk /          数据\tx y z\nsdb\t8:16\n"
        ))
        .unwrap();
        let d = &p.value.devices[0];
        assert_eq!(d.label.as_deref(), Some("数据\tx y z"));
        assert_eq!(d.mountpoints, ["/"]);
        assert_eq!(p.value.devices.len(), 2);
        // A right-aligned last column with text past it is reported.
        let p = parse("NAME MAJ:MIN TYPE  SIZE\nsda  8:0     disk  20G junk\n").unwrap();
        assert_eq!(p.issues.len(), 1, "{:?}", p.issues);
        assert_eq!(p.value.devices[0].size_bytes, Some(20 << 30));
        // A huge line.
        let long = format!("{head}{}\n", "x ".repeat(200_000));
        let _ = parse(&long);
        let _ = parse(&format!(
            "{}\n{}",
            "NAME KNAME TYPE ".repeat(10_000),
            "é ".repeat(50_000)
        ));
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
