//! Hadoop `*-site.xml` parser against the shared corpus (`docker-yarn-cluster` yarn-site and
//! hdfs-site) and a NodeManager `yarn-site.xml` written for these tests with Hadoop's own
//! property names (see `fixtures/PROVENANCE.md`), plus derived inputs built here: duplicates,
//! final overrides, malformed XML, a "billion laughs" DTD and random bytes.

use crate::common::{
    all_fixtures, fixture, fixture_path, head, insert_line, XorShift, SNIFF_HEAD_BYTES,
};
use parsers::hadoop;
use parsers::Sniff;
use std::time::{Duration, Instant};

const YARN: &str = "hadoop-conf/docker-yarn-cluster__yarn-site.xml";
const HDFS: &str = "hadoop-conf/docker-yarn-cluster__hdfs-site.xml";
const NM: &str = "hadoop-conf/written__yarn-site-nodemanager.xml";

#[test]
fn corpus_yarn_site() {
    let p = hadoop::site_xml::parse(&fixture(YARN)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.properties.len(), 6);
    assert_eq!(
        c.get("yarn.nodemanager.aux-services"),
        Some("mapreduce_shuffle")
    );
    assert_eq!(c.get("yarn.resourcemanager.address"), Some("namenode:8032"));
    assert_eq!(
        c.get("yarn.resourcemanager.resource-tracker.address"),
        Some("namenode:8031")
    );
    assert_eq!(
        c.get("yarn.resourcemanager.scheduler.address"),
        Some("namenode:8030")
    );
    assert_eq!(c.i64("yarn.nodemanager.delete.debug-delay-sec"), Some(600));
    let cp = c.get("yarn.application.classpath").unwrap();
    assert!(cp.starts_with("/usr/local/hadoop/etc/hadoop, /usr/local/hadoop/share"));
    assert_eq!(cp.split(',').count(), 9);
    // The description comes before the name in this file: the property's line is its name's.
    let d = c
        .property("yarn.nodemanager.delete.debug-delay-sec")
        .unwrap();
    assert_eq!((d.line, d.start_line, d.end_line), (28, 12, 30));
    let desc = d.description.as_deref().unwrap();
    assert!(desc.starts_with("Number of seconds after an application finishes"));
    assert!(desc.ends_with("(see also below)."));
    assert!(!d.final_);
    assert_eq!(c.property("yarn.nodemanager.aux-services").unwrap().line, 3);
    assert!(c.includes.is_empty());
    assert_eq!(c.bool("yarn.nodemanager.vmem-check-enabled"), None);
}

#[test]
fn corpus_hdfs_site() {
    let p = hadoop::site_xml::parse(&fixture(HDFS)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.properties.len(), 2);
    assert_eq!(c.i64("dfs.replication"), Some(1));
    assert_eq!(c.f64("dfs.replication"), Some(1.0));
    assert_eq!(
        c.bool("dfs.namenode.datanode.registration.ip-hostname-check"),
        Some(false)
    );
    assert_eq!(
        c.property("dfs.namenode.datanode.registration.ip-hostname-check")
            .unwrap()
            .line,
        8
    );
}

#[test]
fn nodemanager_site_vmem_final_and_includes() {
    let p = hadoop::site_xml::parse(&fixture(NM)).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.properties.len(), 6);
    assert_eq!(c.bool("yarn.nodemanager.vmem-check-enabled"), Some(false));
    assert_eq!(c.f64("yarn.nodemanager.vmem-pmem-ratio"), Some(2.1));
    assert_eq!(c.bool("yarn.nodemanager.pmem-check-enabled"), Some(true));
    assert_eq!(c.i64("yarn.nodemanager.resource.memory-mb"), Some(57344));
    let vmem = c.property("yarn.nodemanager.vmem-check-enabled").unwrap();
    assert!(vmem.final_);
    assert_eq!((vmem.line, vmem.start_line, vmem.end_line), (15, 14, 18));
    assert!(
        !c.property("yarn.nodemanager.pmem-check-enabled")
            .unwrap()
            .final_
    );
    assert!(
        !c.property("yarn.nodemanager.vmem-pmem-ratio")
            .unwrap()
            .final_
    );
    // The attribute form.
    let max = c.property("yarn.scheduler.maximum-allocation-mb").unwrap();
    assert_eq!(max.value, "16384");
    assert!(max.final_);
    assert_eq!((max.line, max.start_line, max.end_line), (32, 32, 32));
    // A value spread over lines is trimmed.
    assert_eq!(
        c.get("yarn.nodemanager.local-dirs"),
        Some("/data/1/yarn/local,/data/2/yarn/local")
    );
    assert_eq!(
        c.property("yarn.nodemanager.resource.memory-mb")
            .unwrap()
            .description
            .as_deref(),
        Some("Amount of physical memory, in MB, that can be allocated\n      for containers.")
    );
    let inc: Vec<(&str, usize)> = c
        .includes
        .iter()
        .map(|i| (i.href.as_str(), i.line))
        .collect();
    assert_eq!(
        inc,
        vec![
            ("yarn-rm-ha.xml", 5),
            ("/etc/hadoop/conf/yarn-site-overrides.xml", 41)
        ]
    );
}

#[test]
fn duplicates_keep_the_later_unless_final() {
    let text = "<configuration>\n\
                <property><name>a</name><value>1</value></property>\n\
                <property><name>a</name><value>2</value></property>\n\
                <property><name>b</name><value>1</value><final>true</final></property>\n\
                <property><name>b</name><value>2</value></property>\n\
                </configuration>\n";
    let p = hadoop::site_xml::parse(text).unwrap();
    assert_eq!(p.value.get("a"), Some("2"));
    assert_eq!(p.value.property("a").unwrap().line, 3);
    assert_eq!(
        p.value.get("b"),
        Some("1"),
        "a final value is not overridden"
    );
    assert!(p.value.property("b").unwrap().final_);
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![3, 5], "{:?}", p.issues);
    assert!(p.issues[0].message.contains("line 2"), "{:?}", p.issues);
    assert!(p.issues[1].message.contains("final"), "{:?}", p.issues);
}

#[test]
fn ignored_properties_are_issues() {
    let text = "<?xml version=\"1.0\"?>\n<configuration>\n\
                <property><value>no name</value></property>\n\
                <property><name>empty</name><value></value></property>\n\
                <property><name>absent</name></property>\n\
                <property><name>blank</name><value>   </value></property>\n\
                <property><name>loose</name><value>x</value><final> true </final></property>\n\
                <property><name> spaced.name </name><value> v </value></property>\n\
                <xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>\n\
                </configuration>\n";
    let p = hadoop::site_xml::parse(text).unwrap();
    let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![3, 4, 5, 7, 9], "{:?}", p.issues);
    let c = p.value;
    assert_eq!(c.get("empty"), None);
    assert_eq!(c.get("absent"), None);
    // Whitespace-only text is a value for Hadoop (the empty string once trimmed).
    assert_eq!(c.get("blank"), Some(""));
    assert_eq!(c.bool("blank"), None);
    assert!(!c.property("loose").unwrap().final_);
    assert_eq!(c.get("spaced.name"), Some("v"));
    assert!(c.includes.is_empty());
}

#[test]
fn entities_cdata_comments_and_bom() {
    let text = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c -->\n<configuration>\n\
                <!-- <property><name>commented</name><value>1</value></property> -->\n\
                <property>\n<name>q</name>\n<value>a&amp;b &lt;c&gt; &#65;</value>\n</property>\n\
                <property><name>cd</name><value><![CDATA[<raw>]]></value></property>\n\
                </configuration>";
    let p = hadoop::site_xml::parse(text).unwrap();
    assert!(p.issues.is_empty(), "{:?}", p.issues);
    assert_eq!(p.value.get("q"), Some("a&b <c> A"));
    assert_eq!(p.value.property("q").unwrap().line, 6);
    assert_eq!(p.value.get("cd"), Some("<raw>"));
    assert_eq!(p.value.get("commented"), None);
    // An empty configuration (Hadoop's shipped site files) is valid.
    let empty = "<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n\
                 <!-- Put site-specific property overrides in this file. -->\n<configuration>\n</configuration>\n";
    assert_eq!(hadoop::site_xml::sniff(empty), Sniff::Yes);
    let p = hadoop::site_xml::parse(empty).unwrap();
    assert!(p.value.properties.is_empty() && p.issues.is_empty());
}

#[test]
fn typed_getters() {
    let text = "<configuration>\
        <property><name>t</name><value>TRUE</value></property>\
        <property><name>f</name><value> False </value></property>\
        <property><name>x</name><value>yes</value></property>\
        <property><name>hex</name><value>0x10</value></property>\
        <property><name>neg</name><value>-1</value></property>\
        <property><name>r</name><value>2.5</value></property>\
        <property><name>inf</name><value>inf</value></property>\
        <property><name>dd</name><value>--9223372036854775808</value></property>\
        <property><name>hx</name><value>-0x-8000000000000000</value></property>\
        <property><name>min</name><value>-9223372036854775808</value></property>\
        </configuration>";
    let c = hadoop::site_xml::parse(text).unwrap().value;
    assert_eq!(c.bool("t"), Some(true));
    assert_eq!(c.bool("f"), Some(false));
    assert_eq!(c.bool("x"), None);
    assert_eq!(c.bool("missing"), None);
    assert_eq!(c.i64("hex"), Some(16));
    assert_eq!(c.i64("neg"), Some(-1));
    assert_eq!(c.i64("r"), None);
    assert_eq!(c.f64("r"), Some(2.5));
    assert_eq!(c.f64("inf"), None);
    assert_eq!(c.f64("x"), None);
    assert_eq!(c.i64("dd"), None);
    assert_eq!(c.i64("hx"), None);
    // Hadoop's `Long.parseLong` reads i64::MIN; its magnitude does not fit an i64.
    assert_eq!(c.i64("min"), None);
}

#[test]
fn malformed_xml_is_unusable_with_its_line() {
    // An unclosed <value> on line 4.
    let text = insert_line(&fixture(HDFS), 4, "        <value>oops");
    let err = hadoop::site_xml::parse(&text).unwrap_err();
    let parsers::ParseError::Unusable { line, reason } = &err;
    assert!(line.is_some(), "{err}");
    assert!(reason.contains("not well-formed XML"), "{err}");
    // A mismatched end tag on line 3.
    let text = "<configuration>\n<property>\n<name>a</value>\n</property>\n</configuration>\n";
    let parsers::ParseError::Unusable { line, .. } = hadoop::site_xml::parse(text).unwrap_err();
    assert_eq!(line, Some(3));
    // Truncated file: unusable, at the last line.
    let whole = fixture(YARN);
    assert!(hadoop::site_xml::parse(&whole[..10]).is_err());
    for cut in [200, 1000, whole.len() - 5] {
        let parsers::ParseError::Unusable { line, reason } =
            hadoop::site_xml::parse(&whole[..cut]).unwrap_err();
        assert_eq!(
            line,
            Some(whole[..cut].lines().count()),
            "cut at {cut}: {reason}"
        );
    }
    // Wrong root element.
    let err =
        hadoop::site_xml::parse("<?xml version=\"1.0\"?>\n<beans><property/></beans>").unwrap_err();
    assert_eq!(
        err,
        parsers::ParseError::unusable(
            Some(2),
            "the root element is `<beans>`, not `<configuration>`"
        )
    );
    for text in [
        "",
        "\n",
        "  \n\t\n",
        "\u{feff}",
        "not xml at all",
        "<configuration>",
    ] {
        assert!(hadoop::site_xml::parse(text).is_err(), "{text:?}");
    }
    // An undeclared namespace prefix is an XML error, as it is for Hadoop's reader.
    assert!(
        hadoop::site_xml::parse("<configuration><xi:include href=\"a.xml\"/></configuration>")
            .is_err()
    );
}

#[test]
fn billion_laughs_is_refused_at_once() {
    let mut text =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n");
    let mut prev = "lol".to_string();
    for i in 1..=9 {
        let name = format!("lol{i}");
        let body: String = (0..10).map(|_| format!("&{prev};")).collect();
        text.push_str(&format!(" <!ENTITY {name} \"{body}\">\n"));
        prev = name;
    }
    text.push_str("]>\n<configuration><property><name>x</name><value>&lol9;</value></property></configuration>\n");
    let start = Instant::now();
    let err = hadoop::site_xml::parse(&text).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let parsers::ParseError::Unusable { line, reason } = &err;
    assert_eq!(*line, Some(2), "{err}");
    assert!(reason.contains("DOCTYPE"), "{err}");
    // An external entity is refused the same way (nothing is ever read from disk).
    let xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n\
               <configuration><property><name>x</name><value>&x;</value></property></configuration>";
    assert!(hadoop::site_xml::parse(xxe).is_err());
    // An undefined entity without a DTD is an XML error too.
    assert!(hadoop::site_xml::parse(
        "<configuration><property><name>x</name><value>&lol9;</value></property></configuration>"
    )
    .is_err());
}

#[test]
fn many_properties_parse_in_linear_time() {
    let mut text = String::from("<configuration>\n");
    for i in 0..50_000 {
        text.push_str(&format!(
            "  <property>\n    <name>key.{i}</name>\n    <value>{i}</value>\n  </property>\n"
        ));
    }
    text.push_str("</configuration>\n");
    let start = Instant::now();
    let p = hadoop::site_xml::parse(&text).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(p.value.properties.len(), 50_000);
    assert_eq!(
        p.value.property("key.49999").unwrap().line,
        2 + 49_999 * 4 + 1
    );
    // Deeply nested properties: still linear.
    let depth = 100_000;
    let mut nested = String::from("<configuration>");
    for _ in 0..depth {
        nested.push_str("<property><name>n</name><value>");
    }
    for _ in 0..depth {
        nested.push_str("</value></property>");
    }
    nested.push_str("</configuration>");
    let start = Instant::now();
    if let Ok(p) = hadoop::site_xml::parse(&nested) {
        assert!(p.value.properties.len() <= 1);
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // As deep as the node cap allows: no recursion, no stack overflow.
    let deep = format!(
        "<configuration>{}{}</configuration>",
        "<a>".repeat(900_000),
        "</a>".repeat(900_000)
    );
    assert!(hadoop::site_xml::parse(&deep)
        .unwrap()
        .value
        .properties
        .is_empty());
    // Too many nodes: unusable, not an exhausted memory.
    let mut huge = String::from("<configuration>");
    huge.push_str(&"<a/>".repeat(1_100_000));
    huge.push_str("</configuration>");
    let err = hadoop::site_xml::parse(&huge).unwrap_err();
    assert!(err.to_string().contains("XML nodes"), "{err}");
}

#[test]
fn sniffer_claims_site_files_only() {
    for rel in [YARN, HDFS, NM] {
        let text = fixture(rel);
        assert_eq!(
            hadoop::site_xml::sniff(head(&text, SNIFF_HEAD_BYTES)),
            Sniff::Yes,
            "{rel}"
        );
        assert_eq!(hadoop::site_xml::sniff(&text), Sniff::Yes, "{rel}");
    }
    // Logback and log4j2 configurations are not Hadoop's.
    let logback = "<configuration>\n  <property name=\"LOG_DIR\" value=\"/var/log/app\"/>\n  \
                   <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\"/>\n</configuration>\n";
    assert_eq!(hadoop::site_xml::sniff(logback), Sniff::No);
    let log4j2 = "<Configuration status=\"WARN\">\n<Properties><Property name=\"x\">y</Property></Properties>\n</Configuration>\n";
    assert_eq!(hadoop::site_xml::sniff(log4j2), Sniff::No);
    assert_eq!(hadoop::site_xml::sniff(""), Sniff::No);
    // Every other fixture is refused.
    for rel in all_fixtures() {
        if rel.starts_with("hadoop-conf/") {
            continue;
        }
        let Ok(bytes) = std::fs::read(fixture_path(&rel)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(
            hadoop::site_xml::sniff(head(&text, SNIFF_HEAD_BYTES)),
            Sniff::No,
            "{rel}"
        );
        assert!(hadoop::site_xml::parse(&text).is_err(), "{rel}");
    }
}

#[test]
fn random_bytes_and_mutations_never_panic() {
    let mut rng = XorShift(0x5eed_4ad0_0b1e_0001);
    let texts: Vec<String> = [YARN, HDFS, NM].iter().map(|r| fixture(r)).collect();
    for round in 0..400 {
        let mut b = if round % 3 == 0 {
            let n = rng.below(3000);
            rng.bytes(n)
        } else {
            texts[round % texts.len()].as_bytes().to_vec()
        };
        for _ in 0..rng.below(12) {
            if !b.is_empty() {
                let i = rng.below(b.len());
                b[i] = b"<>/&;\"'=x \n"[rng.below(11)];
            }
        }
        if round % 5 == 0 && !b.is_empty() {
            let cut = rng.below(b.len());
            b.truncate(cut);
        }
        let t = String::from_utf8_lossy(&b);
        let n_lines = t.lines().count().max(1);
        match hadoop::site_xml::parse(&t) {
            Ok(p) => {
                assert!(p.issues.iter().all(|i| i.line >= 1 && i.line <= n_lines));
                for prop in p.value.properties.values() {
                    assert!(prop.start_line <= prop.end_line && prop.end_line <= n_lines);
                }
            }
            Err(parsers::ParseError::Unusable { line, .. }) => {
                assert!(line.is_none_or(|l| l >= 1 && l <= n_lines + 1), "{line:?}");
            }
        }
        let _ = hadoop::site_xml::sniff(&t);
    }
}

#[test]
fn an_element_with_a_flood_of_attributes_is_refused_at_once() {
    // roxmltree checks attribute names for duplicates pairwise: 300 000 attributes took minutes.
    let attrs: Vec<String> = (0..300_000).map(|i| format!("a{i}=\"1\"")).collect();
    let text = format!(
        "<?xml version=\"1.0\"?>\n<configuration {}>\n</configuration>\n",
        attrs.join(" ")
    );
    let e = parsers::hadoop::site_xml::parse(&text).unwrap_err();
    assert!(
        e.to_string().contains("300001 attributes") || e.to_string().contains("1001 attributes"),
        "{e}"
    );
    assert!(e.to_string().contains("line 2"), "{e}");
    // An ordinary file with quotes and `=` in values still parses.
    let ok = "<configuration>\n<property><name>a</name><value>x=y \"q\"</value></property>\n</configuration>\n";
    assert_eq!(
        parsers::hadoop::site_xml::parse(ok).unwrap().value.get("a"),
        Some("x=y \"q\"")
    );
}
