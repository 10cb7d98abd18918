//! The HTML report: one self-contained file rendered from `templates/` (embedded at build time).
//!
//! Auto-escaping is forced to HTML for every template whatever its name (minijinja only escapes
//! `.html`/`.htm`/`.xml` by default), and undefined values are errors, so a template typo fails
//! the tests instead of printing nothing. The page loads nothing: a Content-Security-Policy meta
//! tag forbids every network fetch.

use super::Report;
use crate::rules::RULES;
use minijinja::{context, AutoEscape, Environment, HtmlEscape, UndefinedBehavior, Value};

const TEMPLATES: &[(&str, &str)] = &[
    (
        "report.html",
        include_str!("../../../templates/report.html"),
    ),
    ("style.css", include_str!("../../../templates/style.css")),
];

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("md", md);
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .expect("embedded templates are valid");
    }
    env
}

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

/// Renders the report page. Errors: a template error (a defect in rca).
pub fn render(report: &Report) -> Result<String, minijinja::Error> {
    let env = environment();
    let docs: Vec<_> = RULES.iter().map(|r| r.meta).collect();
    // One entry per profile: the inline SVG (inferno's escaped output, marked safe), or why
    // there is none.
    let flames: Vec<Value> = report
        .profiles
        .iter()
        .map(|p| match super::flame::svg(p) {
            Some(Ok(svg)) => context! { svg => Value::from_safe_string(svg) },
            Some(Err(e)) => context! { error => e },
            None => context! { error => "no stacks in this profile (perf report only)" },
        })
        .collect();
    env.get_template("report.html")?
        .render(context! { r => report, rule_docs => docs, flames => flames })
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
