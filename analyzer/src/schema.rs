//! JSON Schemas of the documents rca writes, derived from the types that serialise them.
//!
//! In: the document types — [`Report`] (`rca analyze --json`), [`DiffReport`] (`rca diff
//! --json`), [`FleetReport`] (`rca fleet --json`). Out: one JSON Schema (draft 2020-12) per
//! document, as shipped in `docs/schema/` ([`DOCUMENTS`]); a test holds those files to the types,
//! and `RCA_BLESS=1 cargo test -p rca schema_files` rewrites them.
//!
//! The schemas describe the serialised form: a field skipped when empty or absent
//! (`skip_serializing_if`) is optional, every other field is required, and fields never written
//! (`serde(skip)`) are not there. They are closed: every object with listed properties (a Rust
//! struct or struct variant) admits no other property, so a renamed, misspelt or added field
//! fails validation until the schema is regenerated; maps (`outcome_counts`, `collection.meta`)
//! stay open. `schema_version` is pinned to the version the document type writes: a reader
//! validating against a schema knows the shape it reads.

use crate::diff::DiffReport;
use crate::fleet::FleetReport;
use crate::report::Report;
use schemars::generate::SchemaSettings;
use schemars::transform::{transform_subschemas, Transform};
use schemars::{JsonSchema, Schema};
use serde_json::Value;

/// One document rca writes and its schema.
pub struct Document {
    /// Short name: the command that writes it (`analyze`, `diff`, `fleet`); the schema file is
    /// `docs/schema/<name>.schema.json`.
    pub name: &'static str,
    /// The schema's `title`.
    pub title: &'static str,
    /// The `schema_version` the document type writes.
    pub version: u32,
    /// Generates the schema.
    generate: fn() -> Schema,
}

impl Document {
    /// File name of the schema inside `docs/schema/` (`analyze.schema.json`).
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.name)
    }

    /// The schema's `$id`: a URN naming the document and its version
    /// (`urn:rca:schema:analyze:v1`), as the documents are not published at an address.
    pub fn id(&self) -> String {
        format!("urn:rca:schema:{}:v{}", self.name, self.version)
    }

    /// The schema as a JSON value: draft 2020-12, with `$id`, `title` and `schema_version`
    /// pinned to [`Document::version`].
    pub fn schema(&self) -> Value {
        let mut schema = (self.generate)();
        schema.insert("$id".into(), self.id().into());
        schema.insert("title".into(), self.title.into());
        let version = schema
            .get_mut("properties")
            .and_then(|p| p.get_mut("schema_version"))
            .and_then(Value::as_object_mut)
            .expect("every document has a `schema_version` property");
        version.insert("const".into(), self.version.into());
        version.insert(
            "description".into(),
            "Version of the document's shape, raised on any incompatible change.".into(),
        );
        schema.to_value()
    }

    /// The schema as written to its file: pretty JSON ending with a newline.
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(&self.schema()).expect("a schema serialises") + "\n"
    }
}

/// The three documents: analysis, comparison of two hosts, comparison of a fleet.
pub const DOCUMENTS: &[Document] = &[
    Document {
        name: "analyze",
        title: "rca analyze --json: the analysis of one bundle",
        version: crate::report::SCHEMA_VERSION,
        generate: generate::<Report>,
    },
    Document {
        name: "diff",
        title: "rca diff --json: a baseline host compared with a suspect host",
        version: crate::diff::SCHEMA_VERSION,
        generate: generate::<DiffReport>,
    },
    Document {
        name: "fleet",
        title: "rca fleet --json: peer hosts compared, outliers ranked",
        version: crate::fleet::SCHEMA_VERSION,
        generate: generate::<FleetReport>,
    },
];

/// The schema of `T` as it serialises, closed ([`Closed`]), shared types under `$defs`.
fn generate<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .with_transform(Closed)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Sets `additionalProperties: false` on every object schema that lists its properties and says
/// nothing of others: a struct, or a struct variant of an enum. Maps (which set
/// `additionalProperties` to their values' schema) are left open.
#[derive(Debug, Clone, Copy)]
struct Closed;

impl Transform for Closed {
    fn transform(&mut self, schema: &mut Schema) {
        transform_subschemas(self, schema);
        if let Some(obj) = schema.as_object_mut() {
            if obj.contains_key("properties") && !obj.contains_key("additionalProperties") {
                obj.insert("additionalProperties".into(), Value::Bool(false));
            }
        }
    }
}

#[cfg(test)]
mod schema_files {
    use super::*;
    use std::path::PathBuf;

    fn dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .join("docs/schema")
    }

    fn bless() -> bool {
        std::env::var("RCA_BLESS").is_ok_and(|v| v == "1")
    }

    #[test]
    fn docs_schema_files_are_the_types() {
        let mut stale = Vec::new();
        for d in DOCUMENTS {
            let path = dir().join(d.file_name());
            let want = d.text();
            let have = std::fs::read_to_string(&path).unwrap_or_default();
            if have != want {
                if bless() {
                    std::fs::write(&path, want).unwrap();
                } else {
                    stale.push(d.file_name());
                }
            }
        }
        assert!(
            stale.is_empty(),
            "docs/schema/{{{}}} differ from the document types; run \
             `RCA_BLESS=1 cargo test -p rca schema_files` and commit the result",
            stale.join(",")
        );
    }

    #[test]
    fn every_schema_is_draft_2020_12_with_its_id_title_and_version() {
        for d in DOCUMENTS {
            let s = d.schema();
            assert_eq!(
                s["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{}",
                d.name
            );
            assert_eq!(s["$id"], d.id());
            assert_eq!(s["title"], d.title);
            assert_eq!(s["properties"]["schema_version"]["const"], d.version);
            assert_eq!(s["additionalProperties"], false, "{}", d.name);
            let required: Vec<&str> = s["required"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert!(required.contains(&"schema_version"), "{}", d.name);
            assert!(required.contains(&"tool"), "{}", d.name);
        }
    }

    #[test]
    fn structs_are_closed_and_maps_open() {
        let s = DOCUMENTS[0].schema();
        let defs = &s["$defs"];
        // A struct: closed.
        assert_eq!(defs["Finding"]["additionalProperties"], false);
        // A struct variant of an internally tagged enum: closed, with its tag.
        let outcome = defs["Outcome"]["oneOf"].as_array().unwrap();
        assert!(outcome
            .iter()
            .all(|v| v["additionalProperties"] == false && v["properties"]["status"].is_object()));
        // A map: its values typed, its keys open.
        let counts = &s["properties"]["outcome_counts"];
        assert_eq!(counts["type"], "object");
        assert_eq!(counts["additionalProperties"]["type"], "integer");
    }
}
