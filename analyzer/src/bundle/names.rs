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

/// Where a link inside the bundle leads, or why it is refused.
///
/// `link` is the link's own normalised bundle path, `what` how the refusal names it (`symbolic
/// link`), `target` its target as stored. With `from_link_folder` the target is resolved from the
/// folder holding the link (a symbolic link); without, from the bundle's root (a tar hard link,
/// which names another member of the archive). `.` and `..` are resolved by name only: nothing on
/// disk is looked at. The tree a link must stay inside is the bundle's root: the folder given for
/// a folder, the archive's root for a tar or zip (a top folder shared by every entry is inside
/// it).
///
/// Returns the target's normalised bundle path (`/`-separated, no `.` or `..`), or the reason
/// for refusing the link: its target is absolute or climbs above the root (both say where they
/// lead), is the root itself, empty, longer than `max` bytes, or holds a NUL byte.
pub fn resolve_link(
    link: &str,
    what: &str,
    target: &[u8],
    from_link_folder: bool,
    max: usize,
) -> Result<String, String> {
    let shown = display(target);
    if target.is_empty() {
        return Err(format!("{what} with an empty target"));
    }
    if target.len() > max {
        return Err(format!(
            "{what} whose target is longer than {max} bytes ({} bytes)",
            target.len()
        ));
    }
    if target.contains(&0) {
        return Err(format!("{what} whose target contains a NUL byte"));
    }
    let text = String::from_utf8_lossy(target).replace('\\', "/");
    let b = text.as_bytes();
    if text.starts_with('/') || (b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic()) {
        return Err(format!(
            "{what} to `{shown}` escapes the bundle: an absolute target names a place on the \
             collecting machine, outside the bundle's tree; links are never followed outside it"
        ));
    }
    let mut parts: Vec<&str> = Vec::new();
    if from_link_folder {
        parts.extend(link.split('/'));
        parts.pop();
    }
    let mut above = 0usize;
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    above += 1;
                }
            }
            // Past the root, the rest is kept for the message only.
            p => parts.push(p),
        }
    }
    if above > 0 {
        let outside = format!("{}{}", "../".repeat(above), parts.join("/"));
        return Err(format!(
            "{what} to `{shown}` escapes the bundle: it climbs above the bundle's root, to \
             `{}`; links are never followed outside it",
            outside.trim_end_matches('/')
        ));
    }
    if parts.is_empty() {
        return Err(format!(
            "{what} to `{shown}` leads to the bundle's root folder itself (a loop)"
        ));
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
    use super::{check, resolve_link};

    #[test]
    fn links_resolve_inside_the_tree_or_are_refused() {
        let r =
            |link: &str, target: &str| resolve_link(link, "link", target.as_bytes(), true, 4096);
        assert_eq!(
            r("sosreport-x/etc/os-release", "../usr/lib/os-release").unwrap(),
            "sosreport-x/usr/lib/os-release"
        );
        assert_eq!(
            r("sosreport-x/free", "sos_commands/memory/free").unwrap(),
            "sosreport-x/sos_commands/memory/free"
        );
        assert_eq!(r("a/b/c", "./../../d/./e").unwrap(), "d/e");
        let why = r("sosreport-x/etc/passwd", "../../../etc/passwd").unwrap_err();
        assert!(
            why.contains("escapes") && why.contains("`../etc/passwd`"),
            "{why}"
        );
        let why = r("x/localtime", "/usr/share/zoneinfo/UTC").unwrap_err();
        assert!(why.contains("escapes") && why.contains("absolute"), "{why}");
        assert!(r("a/b", "..").unwrap_err().contains("root folder itself"));
        assert!(r("a/b", "").is_err());
        assert!(r("a/b", "x\0y").is_err());
        // A tar hard link names a member from the root.
        assert_eq!(
            resolve_link("top/a/b", "hard link", b"top/c", false, 4096).unwrap(),
            "top/c"
        );
    }

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
