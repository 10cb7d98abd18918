//! Service configuration files as normalised key/value maps, for comparison.
//!
//! In: parsed `zoo.cfg` and Hadoop `*-site.xml` artifacts. Out: [`ConfigFile`]s keyed by file
//! name (`zoo.cfg`, `yarn-site.xml`), every key with its value and line.

use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::hadoop::site_xml::HadoopConf;
use parsers::kind::Record;
use parsers::zookeeper::config::ZooCfg;
use serde::Serialize;
use std::collections::BTreeMap;

/// One configuration file.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConfigFile {
    /// File name (`zoo.cfg`, `hdfs-site.xml`): how files of two hosts are paired.
    pub name: String,
    /// Bundle path.
    pub artifact: String,
    /// Format: `zoo.cfg` or `hadoop-site-xml`.
    pub format: &'static str,
    /// Keys and their values (whitespace-trimmed), with their lines.
    pub entries: BTreeMap<String, Cited<String>>,
}

/// The configuration files of the bundle.
pub fn build(c: &Collected) -> Vec<ConfigFile> {
    let mut out = Vec::new();
    for a in &c.artifacts {
        let name = a.path.rsplit('/').next().unwrap_or(&a.path).to_string();
        let data = a.data.as_ref();
        if let Some(z) = data.and_then(ZooCfg::of) {
            out.push(ConfigFile {
                name,
                artifact: a.path.clone(),
                format: "zoo.cfg",
                entries: z
                    .entries
                    .iter()
                    .map(|e| {
                        (
                            e.key.clone(),
                            Cited::new(e.value.trim().to_string(), &a.path, e.line),
                        )
                    })
                    .collect(),
            });
        } else if let Some(h) = data.and_then(HadoopConf::of) {
            out.push(ConfigFile {
                name,
                artifact: a.path.clone(),
                format: "hadoop-site-xml",
                entries: h
                    .properties
                    .iter()
                    .map(|(k, p)| {
                        (
                            k.clone(),
                            Cited::new(p.value.trim().to_string(), &a.path, p.line),
                        )
                    })
                    .collect(),
            });
        }
    }
    out.sort_by(|x, y| {
        x.name
            .cmp(&y.name)
            .then_with(|| x.artifact.cmp(&y.artifact))
    });
    out
}
