//! Hadoop and YARN settings from the `*-site.xml` files in the bundle.
//!
//! In: parsed `hadoop-site-xml` artifacts (`core-site.xml`, `hdfs-site.xml`, `yarn-site.xml`,
//! `mapred-site.xml`). Out: [`Hadoop`]: every property with the file and line it is set on.

use crate::artifacts::Collected;
use crate::evidence::Cited;
use parsers::hadoop::site_xml::HadoopConf;
use serde::Serialize;
use std::collections::BTreeMap;

/// Hadoop configuration of the host.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Hadoop {
    /// Bundle paths of the site files read.
    pub files: Vec<String>,
    /// Every property set, with the line of its `<name>`; when two files set the same key the
    /// one read later (by path order) wins, as in a Hadoop `Configuration` loading them in turn,
    /// unless the earlier one is `<final>true</final>`.
    pub properties: BTreeMap<String, Cited<String>>,
}

impl Hadoop {
    /// A property's value and citation.
    pub fn get(&self, key: &str) -> Option<&Cited<String>> {
        self.properties.get(key)
    }

    /// Is a `yarn-site.xml` among the files?
    pub fn has_yarn_site(&self) -> bool {
        self.files.iter().any(|f| f.ends_with("yarn-site.xml"))
    }
}

/// Builds the Hadoop settings.
pub fn build(c: &Collected) -> Hadoop {
    let mut h = Hadoop::default();
    let mut finals: Vec<String> = Vec::new();
    let mut confs: Vec<_> = c.records::<HadoopConf>().collect();
    confs.sort_by(|x, y| x.0.path.cmp(&y.0.path));
    for (a, conf) in confs {
        h.files.push(a.path.clone());
        for (k, p) in &conf.properties {
            if finals.contains(k) {
                continue;
            }
            if p.final_ {
                finals.push(k.clone());
            }
            h.properties
                .insert(k.clone(), Cited::new(p.value.clone(), &a.path, p.line));
        }
    }
    h
}
