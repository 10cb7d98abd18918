//! The HTML report: one self-contained file rendered from `templates/` (embedded at build time).
//!
//! Auto-escaping is forced to HTML for every template whatever its name (minijinja only escapes
//! `.html`/`.htm`/`.xml` by default), and undefined values are errors, so a template typo fails
//! the tests instead of printing nothing. The page loads nothing: a Content-Security-Policy meta
//! tag forbids every network fetch.

use super::Report;
use crate::rules::RULES;
use minijinja::{context, AutoEscape, Environment, UndefinedBehavior};

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
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .expect("embedded templates are valid");
    }
    env
}

/// Renders the report page. Errors: a template error (a defect in rca).
pub fn render(report: &Report) -> Result<String, minijinja::Error> {
    let env = environment();
    let docs: Vec<_> = RULES.iter().map(|r| r.meta).collect();
    env.get_template("report.html")?
        .render(context! { r => report, rule_docs => docs })
}
