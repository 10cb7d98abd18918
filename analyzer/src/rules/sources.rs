//! Documents cited by more than one rule, spelled once. A rule cites any other source in its
//! own file.

use super::Source;

/// Kernel documentation on spreading receive work: RSS, RPS, RFS, XPS.
pub const KERNEL_SCALING: Source = Source::Doc {
    document: "Linux kernel documentation, Documentation/networking/scaling.rst",
    section: Some("RSS, RPS, RFS"),
    url: Some("https://docs.kernel.org/networking/scaling.html"),
};

/// Red Hat's network performance tuning guidance.
pub const REDHAT_NETWORK_TUNING: Source =
    Source::doc("Red Hat network performance tuning guidance");

/// Brendan Gregg's book.
pub const GREGG_SYSTEMS_PERFORMANCE: &str = "Brendan Gregg, Systems Performance, 2nd ed.";

/// The ZooKeeper Administrator's Guide.
pub const ZOOKEEPER_ADMIN: &str = "ZooKeeper Administrator's Guide";

/// Its address.
pub const ZOOKEEPER_ADMIN_URL: &str =
    "https://zookeeper.apache.org/doc/current/zookeeperAdmin.html";

/// Oracle's troubleshooting guide for Java SE.
pub const ORACLE_TROUBLESHOOTING: &str = "Oracle Java SE Troubleshooting Guide";

/// chrony's documentation.
pub const CHRONY_DOCS: Source = Source::doc("chrony documentation");
