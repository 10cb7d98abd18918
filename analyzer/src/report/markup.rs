//! Markup of rule and finding texts for the pages: in, a plain text that may hold `` `code` ``
//! spans; out, an HTML-escaped value the templates insert as it is.

use minijinja::{HtmlEscape, Value};

/// The `md` filter: HTML-escapes the text, then shows `` `code` `` spans (the only markup rule
/// and finding texts use) as `<code>`. Backticks cannot open markup: they are replaced only after
/// escaping, and only in pairs.
pub(crate) fn md(text: &str) -> Value {
    let escaped = HtmlEscape(text).to_string();
    let mut out = String::with_capacity(escaped.len() + 16);
    let mut parts = escaped.split('`').peekable();
    let mut inside = false;
    let pairs = escaped.matches('`').count() / 2;
    let mut opened = 0;
    while let Some(p) = parts.next() {
        out.push_str(p);
        if parts.peek().is_none() {
            break;
        }
        if inside {
            out.push_str("</code>");
            inside = false;
        } else if opened < pairs {
            out.push_str("<code>");
            inside = true;
            opened += 1;
        } else {
            out.push('`');
        }
    }
    Value::from_safe_string(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn md_escapes_then_marks_code() {
        assert_eq!(
            super::md("run `ethtool -l <nic>` now").to_string(),
            "run <code>ethtool -l &lt;nic&gt;</code> now"
        );
        assert_eq!(super::md("a `b` c `d").to_string(), "a <code>b</code> c `d");
        assert_eq!(
            super::md("<script>`x`").to_string(),
            "&lt;script&gt;<code>x</code>"
        );
    }
}
