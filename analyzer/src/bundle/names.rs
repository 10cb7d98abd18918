//! Entry-name checks shared by the tar, zip and directory readers.
//!
//! Names are checked on their raw bytes, before any library "sanitises" them (zip's
//! `enclosed_name` would turn `/etc/shadow` into `etc/shadow`; tar's `path()` returns raw names).

/// Returns the normalised name (`./` prefixes and duplicate slashes removed), or why the name is
/// refused: empty, longer than `max` bytes, absolute, a Windows drive path, containing a `..`
/// component or a NUL byte.
pub fn check(raw: &[u8], max: usize) -> Result<String, String> {
    if raw.len() > max {
        return Err(format!(
            "name longer than {max} bytes ({} bytes)",
            raw.len()
        ));
    }
    if raw.contains(&0) {
        return Err("name contains a NUL byte".into());
    }
    let name = String::from_utf8_lossy(raw).replace('\\', "/");
    if name.starts_with('/') {
        return Err("absolute path".into());
    }
    let b = name.as_bytes();
    if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
        return Err("absolute Windows path".into());
    }
    let mut parts = Vec::new();
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("`..` component (path traversal)".into()),
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("empty name".into());
    }
    Ok(parts.join("/"))
}

/// A raw name shortened for display in the report.
pub fn display(raw: &[u8]) -> String {
    let s = String::from_utf8_lossy(raw);
    if s.chars().count() > 512 {
        let mut t: String = s.chars().take(512).collect();
        t.push('…');
        t
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn refuses_escapes() {
        assert!(check(b"../../etc/passwd", 4096).is_err());
        assert!(check(b"/etc/shadow", 4096).is_err());
        assert!(check(b"a/../../b", 4096).is_err());
        assert!(check(b"C:\\Windows", 4096).is_err());
        assert!(check(b"a\0b", 4096).is_err());
        assert!(check(&[b'a'; 5000], 4096).is_err());
        assert_eq!(
            check(b"./rca-x/proc//softirqs", 4096).unwrap(),
            "rca-x/proc/softirqs"
        );
    }
}
