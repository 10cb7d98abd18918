//! The rule reference, rendered from the registry's metadata: the report page's appendix.
//!
//! The page cites sources by name (document and section, `case S1`); it names no URL.

use crate::facts::Fact;
use crate::rules::{Limit, RuleMeta, Source, Threshold, RULES};
use minijinja::{context, Value};

/// Every rule's metadata as the page's templates read it.
pub fn page_docs() -> Vec<Value> {
    RULES.iter().map(|r| page_doc(r.meta)).collect()
}

fn page_doc(m: &RuleMeta) -> Value {
    let facts = |v: &[Fact]| -> Vec<Value> {
        v.iter()
            .map(|f| context! { name => f.name(), what => f.describe() })
            .collect()
    };
    let thresholds: Vec<Value> = m
        .thresholds
        .iter()
        .map(|t| {
            context! {
                name => t.name,
                value => value_text(t),
                meaning => t.meaning,
                sources => t.sources.iter().map(Source::citation).collect::<Vec<_>>(),
            }
        })
        .collect();
    context! {
        id => m.id,
        title => m.title,
        area => m.area.label(),
        severity => m.severity.label(),
        needs => facts(m.needs),
        reads => facts(m.reads),
        thresholds => thresholds,
        groups => m.groups.iter().map(|g| g.label()).collect::<Vec<_>>(),
        explains => m.explains,
        checks => m.checks,
        why => m.why,
        false_positives => m.false_positives,
        remedy => m.remedy,
    }
}

/// `20 ms`, `one of e1000, e1000e`, `any`.
fn value_text(t: &Threshold) -> String {
    match (t.value, t.unit) {
        (_, "") => t.value.to_string(),
        (Limit::Any, _) => "any".to_string(),
        (v, u) if u.starts_with('/') => format!("{v}{u}"),
        (v, u) => format!("{v} {u}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_with_their_units() {
        let t = |value, unit| Threshold {
            name: "x",
            value,
            unit,
            meaning: "",
            sources: &[],
        };
        assert_eq!(value_text(&t(Limit::Num(20.0), "ms")), "20 ms");
        assert_eq!(value_text(&t(Limit::Num(1.0), "/s")), "1/s");
        assert_eq!(value_text(&t(Limit::Num(50.0), "%")), "50 %");
        assert_eq!(
            value_text(&t(Limit::Num(0.25), "× its maximum")),
            "0.25 × its maximum"
        );
        assert_eq!(value_text(&t(Limit::Any, "")), "any");
        assert_eq!(value_text(&t(Limit::Num(0.8), "")), "0.8");
    }
}
