//! The comparison pages: `templates/diff.html` and `templates/fleet.html`, embedded at build
//! time and rendered with the same safety as the analysis report: auto-escaping forced to HTML
//! whatever the template name, undefined values are errors, the shared stylesheet inlined, and a
//! Content-Security-Policy meta tag that forbids every network fetch.

use super::DiffReport;
use minijinja::{context, AutoEscape, Environment, UndefinedBehavior};

const TEMPLATES: &[(&str, &str)] = &[
    ("diff.html", include_str!("../../../templates/diff.html")),
    ("fleet.html", include_str!("../../../templates/fleet.html")),
    ("style.css", include_str!("../../../templates/style.css")),
];

/// The environment for the comparison templates.
pub(crate) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.add_filter("md", crate::report::html::md);
    for (name, src) in TEMPLATES {
        env.add_template(name, src)
            .expect("embedded templates are valid");
    }
    env
}

/// Renders the diff page. Errors: a template error (a defect in rca).
pub fn render(report: &DiffReport) -> Result<String, minijinja::Error> {
    let env = environment();
    let areas = areas(report);
    let flame = match &report.flame {
        Some(Ok(svg)) => context! { svg => minijinja::Value::from_safe_string(svg.clone()) },
        Some(Err(e)) => context! { error => e },
        None => context! { error => "no stack profile (`perf script`) on both sides" },
    };
    env.get_template("diff.html")?
        .render(context! { r => report, areas => areas, flame => flame })
}

/// Differences grouped by area for the folded listing: `(area, above noise, below noise)`, areas
/// with the highest score first.
fn areas(report: &DiffReport) -> Vec<(String, Vec<usize>, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>, Vec<usize>)> = Vec::new();
    for (i, d) in report.differences.iter().enumerate() {
        let pos = match out.iter().position(|a| a.0 == d.area) {
            Some(p) => p,
            None => {
                out.push((d.area.to_string(), Vec::new(), Vec::new()));
                out.len() - 1
            }
        };
        if d.noise {
            out[pos].2.push(i);
        } else {
            out[pos].1.push(i);
        }
    }
    out
}
