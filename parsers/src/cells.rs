//! Compact storage for the numbers of long columnar outputs (`vmstat`, `jstat`) and long lines
//! of counters (`/proc/stat`'s `intr`).
//!
//! In: one value per cell, row by row, each `Option<u64>` (a count) or `Option<f64>` (a
//! decimal as printed, with the token it was read from). Out: the same values, bit for bit,
//! read back by row and column. A [`Cells`] holds one `u32` code per cell: a count below
//! `u32::MAX - 1`, or a decimal as an integer mantissa over `10^scale` where the scale is the
//! column's (the number of decimals its first value was printed with). A value that does not
//! fit (a count of 2³² or more, a decimal with more digits than its column, `-0.0`) is kept
//! whole in a side list, so nothing is rounded: a decimal is stored as a mantissa only when
//! dividing the mantissa by `10^scale` gives back the very `f64` that was parsed.
//!
//! A `vmstat` row of 17 columns (~85 bytes of text) takes 68 bytes of codes; a `jstat -gc` row
//! of 19 columns (~200 bytes of text) takes 76.

/// `10^0` … `10^9`: each exact in an `f64`, so `mantissa / 10^scale` is correctly rounded.
const POW10: [f64; 10] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

/// The code of an empty cell.
const NONE: u32 = u32::MAX;
/// The code of a cell whose value is in [`Cells::wide`].
const WIDE: u32 = u32::MAX - 1;
/// Offset added to a decimal's mantissa so that it is stored unsigned.
const BIAS: i64 = 1 << 31;

/// Cell codes, row-major, with the values too large for a code kept aside.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cells {
    codes: Vec<u32>,
    /// `(cell index, value)` in index order: a `u64` count, or the bits of an `f64`.
    wide: Vec<(usize, u64)>,
}

/// The number of decimals printed in `tok` (`12.58` → 2, `12,5` → 1, `7` → 0), at most 9.
pub fn decimals(tok: &str) -> u8 {
    match tok.bytes().position(|b| b == b'.' || b == b',') {
        Some(i) => (tok.len() - i - 1).min(9) as u8,
        None => 0,
    }
}

/// A whole number as `str::parse::<u64>` reads it (so `+5` too), with a fast path for plain
/// digits.
pub fn read_u64(tok: &str) -> Option<u64> {
    let b = tok.as_bytes();
    if !b.is_empty() && b.len() <= 19 && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0u64, |a, d| a * 10 + u64::from(d - b'0')));
    }
    tok.parse().ok()
}

/// Row index or line number as stored (inputs of 4 G lines are out of reach of the collector).
pub fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Of blocks of rows in row order (the rows under one header line), the one holding row `i`:
/// the last whose first row, `first_row(block)`, is at most `i`.
pub fn block_of<B>(blocks: &[B], i: usize, first_row: impl Fn(&B) -> usize) -> Option<&B> {
    blocks
        .partition_point(|b| first_row(b) <= i)
        .checked_sub(1)
        .and_then(|k| blocks.get(k))
}

impl Cells {
    /// Number of cells stored.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether no cell is stored.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Drops the cells from index `len` on (a row that turned out unreadable).
    pub fn truncate(&mut self, len: usize) {
        self.codes.truncate(len);
        let keep = self.wide.partition_point(|(i, _)| *i < len);
        self.wide.truncate(keep);
    }

    /// Gives back spare capacity once every row is in.
    pub fn shrink_to_fit(&mut self) {
        self.codes.shrink_to_fit();
        self.wide.shrink_to_fit();
    }

    /// Appends a count.
    pub fn push_u64(&mut self, v: Option<u64>) {
        let code = match v {
            None => NONE,
            Some(v) if v < u64::from(WIDE) => v as u32,
            Some(v) => {
                self.wide.push((self.codes.len(), v));
                WIDE
            }
        };
        self.codes.push(code);
    }

    /// Appends a decimal stored with `scale` decimals (see [`decimals`]); any value is kept
    /// exactly, one that `scale` cannot represent in a code goes aside.
    pub fn push_f64(&mut self, v: Option<f64>, scale: u8) {
        let Some(v) = v else {
            self.codes.push(NONE);
            return;
        };
        let p = POW10[usize::from(scale.min(9))];
        let m = (v * p).round();
        if m.is_finite() && m >= -(BIAS as f64) && m <= (BIAS - 3) as f64 {
            let m = m as i64;
            if (m as f64 / p).to_bits() == v.to_bits() {
                self.codes.push((m + BIAS) as u32);
                return;
            }
        }
        self.wide.push((self.codes.len(), v.to_bits()));
        self.codes.push(WIDE);
    }

    fn wide_at(&self, i: usize) -> Option<u64> {
        let k = self.wide.binary_search_by_key(&i, |(j, _)| *j).ok()?;
        self.wide.get(k).map(|(_, v)| *v)
    }

    /// The count in cell `i` (`None`: empty or out of range).
    pub fn u64_at(&self, i: usize) -> Option<u64> {
        match *self.codes.get(i)? {
            NONE => None,
            WIDE => self.wide_at(i),
            c => Some(u64::from(c)),
        }
    }

    /// The decimal in cell `i`, pushed with `scale` (`None`: empty or out of range).
    pub fn f64_at(&self, i: usize, scale: u8) -> Option<f64> {
        match *self.codes.get(i)? {
            NONE => None,
            WIDE => self.wide_at(i).map(f64::from_bits),
            c => Some((i64::from(c) - BIAS) as f64 / POW10[usize::from(scale.min(9))]),
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.codes.capacity() * 4 + self.wide.capacity() * std::mem::size_of::<(usize, u64)>()
    }
}

/// A list of counts stored as LEB128 varints: 1 byte for a count below 128, 2 below 16 384,
/// at most 10. For long lines of mostly small counters (`/proc/stat`'s `intr`, where a `0 `
/// takes 2 bytes of text). Serialises as a sequence of numbers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Varints {
    bytes: Vec<u8>,
    len: usize,
}

impl Varints {
    /// Number of counts.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no count.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a count.
    pub fn push(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.bytes.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
        self.len += 1;
    }

    /// The counts in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut rest = self.bytes.as_slice();
        std::iter::from_fn(move || {
            let mut v = 0u64;
            let mut shift = 0u32;
            loop {
                let (&b, tail) = rest.split_first()?;
                rest = tail;
                v |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
                shift += 7;
                if b < 0x80 {
                    return Some(v);
                }
            }
        })
    }

    /// Count `i` (a walk from the start).
    pub fn get(&self, i: usize) -> Option<u64> {
        self.iter().nth(i)
    }

    /// The counts as a vector.
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }

    /// Gives back spare capacity.
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
    }
}

impl FromIterator<u64> for Varints {
    fn from_iter<I: IntoIterator<Item = u64>>(it: I) -> Self {
        let it = it.into_iter();
        let mut v = Varints::default();
        // Most counts take one byte: reserve that much once.
        v.bytes.reserve(it.size_hint().0);
        for x in it {
            v.push(x);
        }
        v.shrink_to_fit();
        v
    }
}

impl serde::Serialize for Varints {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_bit_for_bit() {
        let toks = [
            "12.58",
            "0.00",
            "-3.5",
            "1024.0",
            "0.069",
            "99.99",
            "-0.0",
            "1e300",
            "7",
            "0.1",
            "123456789.12",
            "3.14159265358979",
        ];
        let mut c = Cells::default();
        let scales: Vec<u8> = toks.iter().map(|t| decimals(t).min(2)).collect();
        for (t, s) in toks.iter().zip(&scales) {
            c.push_f64(Some(t.parse().unwrap()), *s);
        }
        c.push_f64(None, 2);
        for (i, (t, s)) in toks.iter().zip(&scales).enumerate() {
            let v: f64 = t.parse().unwrap();
            assert_eq!(c.f64_at(i, *s).unwrap().to_bits(), v.to_bits(), "{t}");
        }
        assert_eq!(c.f64_at(toks.len(), 2), None);
        // -0.0, 1e300, the 3-decimal one at scale 2, the long ones: aside.
        assert_eq!(c.wide.len(), 5);
    }

    #[test]
    fn varints_round_trip() {
        let vals = [
            0,
            1,
            127,
            128,
            16_383,
            16_384,
            u64::from(u32::MAX),
            u64::MAX,
        ];
        let v: Varints = vals.iter().copied().collect();
        assert_eq!(v.len(), vals.len());
        assert_eq!(v.to_vec(), vals);
        assert_eq!(v.get(7), Some(u64::MAX));
        assert_eq!(v.get(8), None);
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&vals).unwrap()
        );
    }

    #[test]
    fn counts_of_any_size_and_truncation() {
        let mut c = Cells::default();
        for v in [0, 5, u64::from(u32::MAX) - 2, u64::from(u32::MAX), u64::MAX] {
            c.push_u64(Some(v));
        }
        c.push_u64(None);
        assert_eq!(c.u64_at(3), Some(u64::from(u32::MAX)));
        assert_eq!(c.u64_at(4), Some(u64::MAX));
        assert_eq!(c.u64_at(2), Some(u64::from(u32::MAX) - 2));
        assert_eq!(c.u64_at(5), None);
        c.truncate(4);
        assert_eq!((c.len(), c.wide.len()), (4, 1));
        assert_eq!(c.u64_at(4), None);
    }
}
