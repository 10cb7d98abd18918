//! Recognising a tar or zip archive from its first bytes (the compressions are recognised in
//! [`super::compress`]).

/// True when the input's first bytes (up to 512) are a zip's: a local file header
/// (`PK\x03\x04`), or the end-of-central-directory record that is all of an empty zip
/// (`PK\x05\x06`).
pub fn is_zip(magic: &[u8]) -> bool {
    magic.starts_with(b"PK\x03\x04") || magic.starts_with(b"PK\x05\x06")
}

/// True when the input's first 512 bytes are a tar header ([`looks_like_tar`]) or all zero (a
/// tar end-of-archive marker: an empty tar).
pub fn is_tar(magic: &[u8]) -> bool {
    magic.len() == 512 && (looks_like_tar(magic) || magic.iter().all(|&b| b == 0))
}

/// True when `h` (512 bytes) is a tar header: `ustar` magic at offset 257, or an old-style
/// header whose checksum field matches its bytes.
pub fn looks_like_tar(h: &[u8]) -> bool {
    if h.len() < 512 {
        return false;
    }
    if &h[257..262] == b"ustar" {
        return true;
    }
    let field = &h[148..156];
    let digits: String = field
        .iter()
        .map(|&b| b as char)
        .filter(|c| c.is_digit(8))
        .collect();
    let Ok(stored) = u32::from_str_radix(&digits, 8) else {
        return false;
    };
    let sum: u32 = h
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                b as u32
            }
        })
        .sum();
    !digits.is_empty() && stored == sum && h[0] != 0
}
