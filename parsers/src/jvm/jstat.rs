//! `jstat` garbage-collection statistics: `-gcutil`, `-gc`, `-gccapacity`, `-gcold`, `-gccause`
//! (and the other `-gc*` options, whose unnamed columns land in [`JstatSample::extra`]), with and
//! without `-t`, from JDK 7 (`P`, `PC`, `PU`: PermGen), JDK 8 (`M`, `CCS`, `MC`, `MU`…) and
//! JDK 11+ (`CGC`, `CGCT`: concurrent cycles).
//!
//! Columns are read by header name, so any option and JDK layout works; the header line is
//! repeated every `-h N` rows and may change within a file (several outputs concatenated). `-`
//! (not applicable, e.g. `CGC` under Parallel GC) becomes `None`, never 0. Numbers printed with a
//! decimal comma (a JVM running under a `de_DE`-like locale) are read too. The `-gccause` text
//! columns `LGCC` and `GCC` contain spaces (`G1 Evacuation Pause`); they are cut at the `GCC`
//! header position, or else at the first run of two spaces.
//!
//! Units: `*_pct` % of the space's current capacity; `*_kib` KiB; `*_s` seconds (cumulative
//! since JVM start); counts are cumulative event counts; `Timestamp` seconds since JVM start.
//!
//! Not handled: `-class`, `-compiler`, `-printcompilation` (no `YGC` column).
//!
//! Sample input (OpenJDK 17.0.15, `jstat -gcutil -t PID 250 5`):
//! ```text
//! Timestamp         S0     S1     E      O      M     CCS    YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT
//!             8.3   0.00  82.42  88.24  60.68  53.35   5.76     25     0.062     0     0.000     0     0.000     0.062
//! ```

use crate::cells::{block_of, decimals, u32_of, Cells};
use crate::common::{
    excerpt, head_lines, numbered_lines, read_num, strip_bom, Ceiling, Issues, NumError,
};
use crate::common::{ParseError, Parsed, Sniff};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The jstat option that printed the output, inferred from the column names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum JstatOption {
    /// `-gcutil`: `S0 S1 E O M CCS YGC …` (percentages).
    GcUtil,
    /// `-gc`: `S0C S1C S0U S1U EC EU OC OU MC MU …` (KiB).
    Gc,
    /// `-gccapacity`: `NGCMN NGCMX NGC … OGCMN OGCMX OGC …`.
    GcCapacity,
    /// `-gcold`: `MC MU CCSC CCSU OC OU …` (JDK 7: `PC PU OC OU …`).
    GcOld,
    /// `-gccause`: `-gcutil` columns plus `LGCC GCC`.
    GcCause,
    /// `-gcnew`: `S0C S1C S0U S1U TT MTT DSS EC EU YGC YGCT`.
    GcNew,
    /// `-gcnewcapacity`: `NGCMN NGCMX NGC S0CMX …` without old-gen columns.
    GcNewCapacity,
    /// `-gcoldcapacity`: `OGCMN OGCMX OGC OC …` without young-gen columns.
    GcOldCapacity,
    /// `-gcmetacapacity`: `MCMN MCMX MC CCSMN …`.
    GcMetaCapacity,
    /// `-gcpermcapacity` (JDK 7): `PGCMN PGCMX PGC PC …`.
    GcPermCapacity,
    /// Columns not matching any of the above.
    #[default]
    Other,
}

impl JstatOption {
    /// Infers the option from a header's column names.
    pub fn infer(cols: &[&str]) -> JstatOption {
        let has = |c: &str| cols.contains(&c);
        if has("LGCC") {
            JstatOption::GcCause
        } else if has("S0") && has("E") {
            JstatOption::GcUtil
        } else if has("NGCMN") && has("OGCMN") {
            JstatOption::GcCapacity
        } else if has("NGCMN") {
            JstatOption::GcNewCapacity
        } else if has("OGCMN") {
            JstatOption::GcOldCapacity
        } else if has("MCMN") {
            JstatOption::GcMetaCapacity
        } else if has("PGCMN") {
            JstatOption::GcPermCapacity
        } else if has("TT") && has("EC") {
            JstatOption::GcNew
        } else if has("EC") && has("OC") {
            JstatOption::Gc
        } else if has("OC") && has("OU") {
            JstatOption::GcOld
        } else {
            JstatOption::Other
        }
    }
}

/// A whole jstat output.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Jstat {
    /// Option inferred from the first header line's columns.
    pub option: JstatOption,
    /// 1-based input lines of every header line (repeated with `-h N`).
    pub header_lines: Vec<usize>,
    /// Samples in input order.
    pub samples: JstatSamples,
}

/// A column of a jstat block: a [`JstatSample`] field, or another header name (kept in
/// [`JstatSample::extra`]).
#[derive(Debug, Clone, PartialEq)]
enum Col {
    Field(Field),
    Extra(Box<str>),
}

/// Rows under one header line.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    /// Index of the block's first row.
    first_row: usize,
    /// Index of its first cell.
    first_cell: usize,
    /// The numeric columns (those before `LGCC`).
    cols: Box<[Col]>,
    /// Decimals each column's codes are scaled by ([`crate::cells`]), from its first value.
    scales: Box<[u8]>,
}

/// The samples of a [`Jstat`], stored compactly: the columns once per header line, every
/// numeric value as a 4-byte code ([`crate::cells`]), the `-gccause` texts once per distinct
/// text. Read a sample with [`JstatSamples::get`] or [`JstatSamples::iter`], which build a
/// [`JstatSample`] on the fly. Heap: about 4 bytes per value and 4 per row (its line), under
/// the ~10 bytes of text a padded jstat value takes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JstatSamples {
    blocks: Vec<Block>,
    /// Input line of each row.
    lines: Vec<u32>,
    cells: Cells,
    /// `(row, LGCC, GCC)` of the `-gccause` rows, as indices into `texts` (`u32::MAX`: no
    /// `GCC`), in row order.
    causes: Vec<(u32, u32, u32)>,
    /// Distinct `-gccause` texts.
    texts: Vec<Box<str>>,
}

impl JstatSamples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Sample `i` (0-based, input order).
    pub fn get(&self, i: usize) -> Option<JstatSample> {
        let line = *self.lines.get(i)?;
        let b = block_of(&self.blocks, i, |b| b.first_row)?;
        let base = b.first_cell + (i - b.first_row) * b.cols.len();
        let mut s = JstatSample {
            line: line as usize,
            ..JstatSample::default()
        };
        for (j, (col, scale)) in b.cols.iter().zip(b.scales.iter()).enumerate() {
            match col {
                Col::Field(f) => match s.slot(*f) {
                    Some(Slot::Count(c)) => {
                        if let Some(v) = self.cells.u64_at(base + j) {
                            *c = Some(v);
                        }
                    }
                    Some(Slot::Real(r)) => {
                        if let Some(v) = self.cells.f64_at(base + j, *scale) {
                            *r = Some(v);
                        }
                    }
                    None => {}
                },
                Col::Extra(name) => {
                    if let Some(v) = self.cells.f64_at(base + j, *scale) {
                        s.extra.insert(name.to_string(), v);
                    }
                }
            }
        }
        let row = u32_of(i);
        if let Ok(k) = self.causes.binary_search_by_key(&row, |(r, _, _)| *r) {
            if let Some((_, l, g)) = self.causes.get(k) {
                let text = |t: u32| self.texts.get(t as usize).map(|t| t.to_string());
                s.lgcc = text(*l);
                s.gcc = text(*g);
            }
        }
        Some(s)
    }

    /// The first sample.
    pub fn first(&self) -> Option<JstatSample> {
        self.get(0)
    }

    /// The last sample.
    pub fn last(&self) -> Option<JstatSample> {
        self.get(self.len().checked_sub(1)?)
    }

    /// The samples in input order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = JstatSample> + ExactSizeIterator + Clone + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }

    /// Consecutive samples: `(0, 1)`, `(1, 2)`, …
    pub fn pairs(&self) -> impl Iterator<Item = (JstatSample, JstatSample)> + '_ {
        self.iter().zip(self.iter().skip(1))
    }

    fn shrink_to_fit(&mut self) {
        self.blocks.shrink_to_fit();
        self.lines.shrink_to_fit();
        self.cells.shrink_to_fit();
        self.causes.shrink_to_fit();
        self.texts.shrink_to_fit();
    }
}

impl Serialize for JstatSamples {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

/// One jstat row. A field is `None` when its column is not printed or shows `-`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct JstatSample {
    /// 1-based input line.
    pub line: usize,
    /// `Timestamp` (`-t`): seconds since JVM start.
    pub timestamp_s: Option<f64>,
    /// `S0`: survivor space 0 utilisation, % of its capacity.
    pub s0_pct: Option<f64>,
    /// `S1`: survivor space 1 utilisation, %.
    pub s1_pct: Option<f64>,
    /// `E`: Eden utilisation, %.
    pub eden_pct: Option<f64>,
    /// Old gen (`O`) utilisation, %.
    pub old_pct: Option<f64>,
    /// `M`: Metaspace utilisation, % (JDK 8+).
    pub meta_pct: Option<f64>,
    /// `CCS`: compressed class space utilisation, % (JDK 8+).
    pub ccs_pct: Option<f64>,
    /// `P`: permanent generation utilisation, % (JDK 7 and older).
    pub perm_pct: Option<f64>,
    /// `YGC`: young collections since JVM start.
    pub ygc: Option<u64>,
    /// `YGCT`: time in young collections, s.
    pub ygct_s: Option<f64>,
    /// `FGC`: full collections (stop-the-world old-gen events) since JVM start.
    pub fgc: Option<u64>,
    /// `FGCT`: time in full collections, s.
    pub fgct_s: Option<f64>,
    /// `CGC`: concurrent collection cycles (JDK 11+; `-` for collectors without).
    pub cgc: Option<u64>,
    /// `CGCT`: time in concurrent-cycle pauses, s (JDK 11+).
    pub cgct_s: Option<f64>,
    /// `GCT`: total GC time, s.
    pub gct_s: Option<f64>,
    /// `LGCC` (`-gccause`): cause of the last GC, e.g. `G1 Evacuation Pause`, `Allocation Failure`.
    pub lgcc: Option<String>,
    /// `GCC` (`-gccause`): cause of the current GC, `No GC` when none runs.
    pub gcc: Option<String>,
    /// `S0C`: survivor 0 capacity, KiB.
    pub s0c_kib: Option<f64>,
    /// `S1C`: survivor 1 capacity, KiB.
    pub s1c_kib: Option<f64>,
    /// `S0U`: survivor 0 used, KiB.
    pub s0u_kib: Option<f64>,
    /// `S1U`: survivor 1 used, KiB.
    pub s1u_kib: Option<f64>,
    /// `EC`: Eden capacity, KiB.
    pub ec_kib: Option<f64>,
    /// `EU`: Eden used, KiB.
    pub eu_kib: Option<f64>,
    /// `OC`: old gen capacity, KiB.
    pub oc_kib: Option<f64>,
    /// `OU`: old gen used, KiB.
    pub ou_kib: Option<f64>,
    /// `MC`: Metaspace committed size, KiB.
    pub mc_kib: Option<f64>,
    /// `MU`: Metaspace used, KiB.
    pub mu_kib: Option<f64>,
    /// `CCSC`: compressed class space committed, KiB.
    pub ccsc_kib: Option<f64>,
    /// `CCSU`: compressed class space used, KiB.
    pub ccsu_kib: Option<f64>,
    /// `PC`: PermGen capacity, KiB (JDK 7).
    pub pc_kib: Option<f64>,
    /// `PU`: PermGen used, KiB (JDK 7).
    pub pu_kib: Option<f64>,
    /// `NGCMN`: minimum young gen capacity, KiB.
    pub ngcmn_kib: Option<f64>,
    /// `NGCMX`: maximum young gen capacity, KiB.
    pub ngcmx_kib: Option<f64>,
    /// `NGC`: current young gen capacity, KiB.
    pub ngc_kib: Option<f64>,
    /// `OGCMN`: minimum old gen capacity, KiB.
    pub ogcmn_kib: Option<f64>,
    /// `OGCMX`: maximum old gen capacity, KiB.
    pub ogcmx_kib: Option<f64>,
    /// `OGC`: current old gen capacity, KiB.
    pub ogc_kib: Option<f64>,
    /// `MCMN`: minimum Metaspace capacity, KiB.
    pub mcmn_kib: Option<f64>,
    /// `MCMX`: maximum Metaspace capacity, KiB.
    pub mcmx_kib: Option<f64>,
    /// `CCSMN`: minimum compressed class space capacity, KiB.
    pub ccsmn_kib: Option<f64>,
    /// `CCSMX`: maximum compressed class space capacity, KiB.
    pub ccsmx_kib: Option<f64>,
    /// `PGCMN`: minimum PermGen capacity, KiB (JDK 7).
    pub pgcmn_kib: Option<f64>,
    /// `PGCMX`: maximum PermGen capacity, KiB (JDK 7).
    pub pgcmx_kib: Option<f64>,
    /// `PGC`: current PermGen capacity, KiB (JDK 7).
    pub pgc_kib: Option<f64>,
    /// Numeric columns this parser does not name (`TT`, `MTT`, `DSS`, `S0CMX`, `ECMX`…), by
    /// header text; `-` values are left out.
    pub extra: BTreeMap<String, f64>,
}

/// A column scale not yet known (no value read under it yet).
const UNSET: u8 = u8::MAX;

enum Slot<'a> {
    Real(&'a mut Option<f64>),
    Count(&'a mut Option<u64>),
}

/// A column of [`JstatSample`] named by the parser, found once per header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Field(u8);

impl Field {
    /// Whether the field is a whole count (`YGC`, `FGC`, `CGC`).
    fn is_count(self) -> bool {
        matches!(self.0, 8 | 10 | 12)
    }

    /// The field printed under `col`, if the parser names it.
    fn of(col: &str) -> Option<Field> {
        Some(Field(match col {
            "Timestamp" => 0,
            "S0" => 1,
            "S1" => 2,
            "E" => 3,
            "O" => 4,
            "M" => 5,
            "CCS" => 6,
            "P" => 7,
            "YGC" => 8,
            "YGCT" => 9,
            "FGC" => 10,
            "FGCT" => 11,
            "CGC" => 12,
            "CGCT" => 13,
            "GCT" => 14,
            "S0C" => 15,
            "S1C" => 16,
            "S0U" => 17,
            "S1U" => 18,
            "EC" => 19,
            "EU" => 20,
            "OC" => 21,
            "OU" => 22,
            "MC" => 23,
            "MU" => 24,
            "CCSC" => 25,
            "CCSU" => 26,
            "PC" => 27,
            "PU" => 28,
            "NGCMN" => 29,
            "NGCMX" => 30,
            "NGC" => 31,
            "OGCMN" => 32,
            "OGCMX" => 33,
            "OGC" => 34,
            "MCMN" => 35,
            "MCMX" => 36,
            "CCSMN" => 37,
            "CCSMX" => 38,
            "PGCMN" => 39,
            "PGCMX" => 40,
            "PGC" => 41,
            _ => return None,
        }))
    }
}

impl JstatSample {
    fn slot(&mut self, f: Field) -> Option<Slot<'_>> {
        use Slot::{Count, Real};
        Some(match f.0 {
            0 => Real(&mut self.timestamp_s),
            1 => Real(&mut self.s0_pct),
            2 => Real(&mut self.s1_pct),
            3 => Real(&mut self.eden_pct),
            4 => Real(&mut self.old_pct),
            5 => Real(&mut self.meta_pct),
            6 => Real(&mut self.ccs_pct),
            7 => Real(&mut self.perm_pct),
            8 => Count(&mut self.ygc),
            9 => Real(&mut self.ygct_s),
            10 => Count(&mut self.fgc),
            11 => Real(&mut self.fgct_s),
            12 => Count(&mut self.cgc),
            13 => Real(&mut self.cgct_s),
            14 => Real(&mut self.gct_s),
            15 => Real(&mut self.s0c_kib),
            16 => Real(&mut self.s1c_kib),
            17 => Real(&mut self.s0u_kib),
            18 => Real(&mut self.s1u_kib),
            19 => Real(&mut self.ec_kib),
            20 => Real(&mut self.eu_kib),
            21 => Real(&mut self.oc_kib),
            22 => Real(&mut self.ou_kib),
            23 => Real(&mut self.mc_kib),
            24 => Real(&mut self.mu_kib),
            25 => Real(&mut self.ccsc_kib),
            26 => Real(&mut self.ccsu_kib),
            27 => Real(&mut self.pc_kib),
            28 => Real(&mut self.pu_kib),
            29 => Real(&mut self.ngcmn_kib),
            30 => Real(&mut self.ngcmx_kib),
            31 => Real(&mut self.ngc_kib),
            32 => Real(&mut self.ogcmn_kib),
            33 => Real(&mut self.ogcmx_kib),
            34 => Real(&mut self.ogc_kib),
            35 => Real(&mut self.mcmn_kib),
            36 => Real(&mut self.mcmx_kib),
            37 => Real(&mut self.ccsmn_kib),
            38 => Real(&mut self.ccsmx_kib),
            39 => Real(&mut self.pgcmn_kib),
            40 => Real(&mut self.pgcmx_kib),
            41 => Real(&mut self.pgc_kib),
            _ => return None,
        })
    }
}

/// A jstat header line: a `YGC` column, and only column names (upper-case letters and digits,
/// or `Timestamp`).
fn is_header(toks: &[&str]) -> bool {
    toks.len() >= 2
        && toks.contains(&"YGC")
        && toks.iter().all(|t| {
            *t == "Timestamp"
                || t.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

/// jstat output?
///
/// `Yes` on a complete header line (column names including `YGC`); `No` otherwise.
pub fn sniff(head: &str) -> Sniff {
    for (line, complete) in head_lines(head) {
        let toks: Vec<&str> = line.split_ascii_whitespace().collect();
        if complete && is_header(&toks) {
            return Sniff::Yes;
        }
    }
    Sniff::No
}

/// The current header.
struct Layout<'a> {
    cols: Vec<&'a str>,
    /// The field of each column (`None`: kept in `extra`).
    fields: Vec<Option<Field>>,
    /// Number of columns before `LGCC` (all of them without `-gccause`).
    numeric: usize,
    /// Byte offset of the `GCC` header in its line.
    gcc_at: Option<usize>,
    line: usize,
}

fn layout<'a>(line: &'a str, toks: Vec<&'a str>, n: usize) -> Layout<'a> {
    let numeric = toks.iter().position(|t| *t == "LGCC").unwrap_or(toks.len());
    let gcc_at = line.find(" GCC").map(|i| i + 1);
    Layout {
        fields: toks.iter().map(|c| Field::of(c)).collect(),
        cols: toks,
        numeric,
        gcc_at,
        line: n,
    }
}

/// Splits the `-gccause` text after the numbers into `LGCC` and `GCC`.
fn split_causes(line: &str, text_at: usize, gcc_at: Option<usize>) -> (String, Option<String>) {
    if let Some(g) = gcc_at {
        if g > text_at && line.as_bytes().get(g - 1) == Some(&b' ') {
            if let (Some(a), Some(b)) = (line.get(text_at..g), line.get(g..)) {
                if !a.trim().is_empty() && !b.trim().is_empty() {
                    return (a.trim().to_string(), Some(b.trim().to_string()));
                }
            }
        }
    }
    let text = line.get(text_at..).unwrap_or("").trim();
    match text.split_once("  ") {
        Some((a, b)) => (a.trim().to_string(), Some(b.trim().to_string())),
        None => (text.to_string(), None),
    }
}

/// Parses jstat output.
///
/// Errors: [`ParseError::Unusable`] when no header line (column names with `YGC`) is found.
/// Rows before the first header, with the wrong number of values, or with a non-number become
/// issues.
pub fn parse(text: &str) -> Result<Parsed<Jstat>, ParseError> {
    let mut out = Jstat::default();
    let mut issues = Issues::default();
    let mut current: Option<Layout> = None;
    let mut toks: Vec<&str> = Vec::with_capacity(32);
    // `-gccause` texts seen, by text: their index in `texts`.
    let mut text_ids: HashMap<String, u32> = HashMap::new();
    for (n, line) in numbered_lines(strip_bom(text)) {
        toks.clear();
        toks.extend(line.split_ascii_whitespace());
        if toks.is_empty() {
            continue;
        }
        if is_header(&toks) {
            if out.header_lines.is_empty() {
                out.option = JstatOption::infer(&toks);
            }
            out.header_lines.push(n);
            let l = layout(line, std::mem::take(&mut toks), n);
            let store = &mut out.samples;
            store.blocks.push(Block {
                first_row: store.lines.len(),
                first_cell: store.cells.len(),
                cols: l.cols[..l.numeric]
                    .iter()
                    .zip(&l.fields)
                    .map(|(c, f)| match f {
                        Some(f) => Col::Field(*f),
                        None => Col::Extra((*c).into()),
                    })
                    .collect(),
                scales: vec![UNSET; l.numeric].into(),
            });
            current = Some(l);
            continue;
        }
        let Some(l) = &current else {
            issues.push(n, || {
                format!(
                    "expected the jstat header line (`S0 S1 E O … YGC …`) before this row: `{}`",
                    excerpt(line)
                )
            });
            continue;
        };
        let causes = l.numeric < l.cols.len();
        let count_ok = if causes {
            toks.len() > l.numeric
        } else {
            toks.len() == l.cols.len()
        };
        if !count_ok {
            let (expected, found, hl) = (l.cols.len(), toks.len(), l.line);
            issues.push(n, || {
                format!(
                    "expected {expected} values as in the header on line {hl}, found {found}: `{}`",
                    excerpt(line)
                )
            });
            continue;
        }
        let store = &mut out.samples;
        let Some(block) = store.blocks.last_mut() else {
            continue;
        };
        let start = store.cells.len();
        let mut bad = None;
        for (((col, field), tok), scale) in l.cols[..l.numeric]
            .iter()
            .zip(&l.fields)
            .zip(&toks)
            .zip(block.scales.iter_mut())
        {
            if *tok == "-" {
                store.cells.push_u64(None);
                continue;
            }
            let v = match read_num(tok, Ceiling::Counter) {
                Ok(v) => v,
                Err(NumError::NotANumber) => {
                    bad = Some((*col, *tok, "a number"));
                    break;
                }
                Err(e) => {
                    issues.push(n, || e.message(col, tok));
                    store.cells.push_u64(None);
                    continue;
                }
            };
            if field.is_some_and(Field::is_count) {
                if v < 0.0 || v.fract() != 0.0 || v > u64::MAX as f64 {
                    bad = Some((*col, *tok, "a whole number"));
                    break;
                }
                store.cells.push_u64(Some(v as u64));
            } else {
                if *scale == UNSET {
                    *scale = decimals(tok);
                }
                store.cells.push_f64(Some(v), *scale);
            }
        }
        if let Some((col, tok, what)) = bad {
            store.cells.truncate(start);
            issues.push(n, || {
                format!("expected {what} under `{col}`, found `{}`", excerpt(tok))
            });
            continue;
        }
        let row = u32_of(store.lines.len());
        store.lines.push(u32_of(n));
        if causes {
            // Byte offset just after the last numeric token.
            let text_at = match l.numeric.checked_sub(1).and_then(|i| toks.get(i)) {
                Some(last) => (last.as_ptr() as usize - line.as_ptr() as usize) + last.len(),
                None => 0,
            };
            let (lgcc, gcc) = split_causes(line, text_at, l.gcc_at);
            let mut id = |t: String| -> u32 {
                let next = u32_of(store.texts.len());
                *text_ids.entry(t).or_insert_with_key(|t| {
                    store.texts.push(t.as_str().into());
                    next
                })
            };
            let l = id(lgcc);
            let g = gcc.map_or(u32::MAX, &mut id);
            store.causes.push((row, l, g));
        }
    }
    if out.header_lines.is_empty() {
        return Err(ParseError::unusable(
            None,
            "no jstat header line (column names with `YGC`) found",
        ));
    }
    // A long listing grows its vectors by doubling: give back what is left over.
    out.samples.shrink_to_fit();
    Ok(Parsed {
        value: out,
        issues: issues.into_vec(),
    })
}
