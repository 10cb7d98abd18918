//! Apache Hadoop: the XML configuration files (`core-site.xml`, `hdfs-site.xml`, …).
//!
//! In: the XML text of one file. Out: every property with its value, flags and line.

pub mod site_xml;
