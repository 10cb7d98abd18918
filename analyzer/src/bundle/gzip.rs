//! gzip decoding that behaves like `gzip -d`: every member of a multi-member file is read, and
//! bytes after the last member that do not start another member (NUL padding from tape or
//! block devices, garbage appended in transit) are ignored with a warning instead of failing.

use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::rc::Rc;

/// Reads gzip members one after the other from `R`.
pub struct Members<R: BufRead> {
    dec: Option<flate2::bufread::GzDecoder<R>>,
    trailing: Rc<Cell<bool>>,
}

impl<R: BufRead> Members<R> {
    /// Starts at the first member.
    pub fn new(r: R) -> Self {
        Members {
            dec: Some(flate2::bufread::GzDecoder::new(r)),
            trailing: Rc::new(Cell::new(false)),
        }
    }

    /// Set once bytes that are not a gzip member were found after the last member.
    pub fn trailing_flag(&self) -> Rc<Cell<bool>> {
        self.trailing.clone()
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(d) = self.dec.as_mut() else {
                return Ok(0);
            };
            let n = d.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // This member is complete: another one, trailing bytes, or the end.
            let mut inner = self
                .dec
                .take()
                .map(|d| d.into_inner())
                .ok_or_else(|| io::Error::other("decoder gone"))?;
            let rest = inner.fill_buf()?;
            if rest.is_empty() {
                return Ok(0);
            }
            if rest.starts_with(&[0x1f, 0x8b]) {
                self.dec = Some(flate2::bufread::GzDecoder::new(inner));
                continue;
            }
            self.trailing.set(true);
            return Ok(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn members_and_trailing_bytes() {
        let mut two = gz(b"hello ");
        two.extend(gz(b"world"));
        let mut out = String::new();
        Members::new(&two[..]).read_to_string(&mut out).unwrap();
        assert_eq!(out, "hello world");

        let mut padded = gz(b"data");
        padded.extend([0u8; 1000]);
        let mut m = Members::new(&padded[..]);
        let flag = m.trailing_flag();
        let mut out = String::new();
        m.read_to_string(&mut out).unwrap();
        assert_eq!(out, "data");
        assert!(flag.get());

        let cut = gz(b"0123456789abcdef0123456789");
        assert!(
            Members::new(&cut[..cut.len() - 6])
                .read_to_end(&mut Vec::new())
                .is_err(),
            "truncation is still an error"
        );
    }
}
