//! The comparison pages: `templates/diff.html` and `templates/fleet.html`, rendered in the
//! environment of the analysis report (`crate::report::html`): the same components, stylesheet,
//! script and Content-Security-Policy, auto-escaping forced to HTML and undefined values errors.

use super::DiffReport;
use minijinja::{context, Environment, Value};

/// The environment for the comparison templates.
pub(crate) fn environment() -> Environment<'static> {
    crate::report::html::environment()
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
    // Both hosts' charts, paired by kind, each on its own window and on a shared value scale.
    let (b, s) = crate::report::charts::draw_pair(&report.baseline.charts, &report.suspect.charts);
    let mut ids: Vec<String> = b.iter().map(|d| d.id.clone()).collect();
    for d in &s {
        if !ids.contains(&d.id) {
            ids.push(d.id.clone());
        }
    }
    let pick = |v: &[crate::report::charts::Drawn], id: &str| {
        v.iter()
            .find(|d| d.id == id)
            .cloned()
            .map(crate::report::html::chart_value)
            .unwrap_or(Value::from(()))
    };
    let timeline: Vec<Value> = ids
        .iter()
        .map(|id| context! { id => id, baseline => pick(&b, id), suspect => pick(&s, id) })
        .collect();
    env.get_template("diff.html")?.render(context! {
        r => report,
        areas => areas,
        flame => flame,
        timeline => timeline,
    })
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
