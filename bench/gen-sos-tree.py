#!/usr/bin/env python3
"""Generates a synthetic sosreport-shaped folder of FILES files (default 100 000), to measure how
rca's report scales with the number of files in a bundle.

The tree has the shape of an unpacked sosreport: `sos_commands/<plugin>/<command with its
arguments>`, `proc/<pid>/{status,cmdline,limits,...}`, `etc/...`, `sys/...`, `var/log/...`, mostly
small files (tens to a few hundred bytes), a few large logs (a few MiB), and a handful of real
outputs copied from the parser fixtures (`parsers/tests/fixtures/`, whose PROVENANCE.md says where
each comes from) at the places sosreport puts them, so that rca parses them, draws charts and
fires rules. The small files' text is filler, marked as such: it is not any tool's format and
rca reports it as unrecognised, as it does most of a real sosreport's files. A few filler files
sit where a kind's path is (`ethtool_-i_<nic>`), so they come out unusable.

The tree is the same for the same FILES and SEED.

Usage: bench/gen-sos-tree.py OUT_DIR [FILES] [SEED]
"""
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "parsers", "tests", "fixtures")

# Real outputs: (fixture, path in the tree). The paths are those sosreport writes (and that rca's
# sosreport layout names), so the kinds come from their places.
REAL = [
    ("captured/uname-a.txt", "sos_commands/kernel/uname_-a"),
    ("captured/os-release.txt", "etc/os-release"),
    ("proc-meminfo/insights-core__proc-meminfo-rhel7.txt", "proc/meminfo"),
    ("proc-interrupts/insights-core__proc-interrupts-x86-8cpu-IR-IO-APIC.txt", "proc/interrupts"),
    ("proc-softirqs/hotsos__proc-softirqs-2cpu-vm.txt", "proc/softirqs"),
    ("proc-stat/node_exporter__proc-stat-8cpu.txt", "proc/stat"),
    ("proc-net-dev/jc__jc-proc-net-dev.txt", "proc/net/dev"),
    ("proc-diskstats/node_exporter__proc-diskstats-mixed.txt", "proc/diskstats"),
    ("proc-modules/" , "proc/modules"),
    ("sysctl/jc__sysctl-a-centos7.txt", "sos_commands/kernel/sysctl_-a"),
    ("lsmod/insights-core__lsmod-rhel7.txt", "sos_commands/kernel/lsmod"),
    ("dmesg/insights-core__dmesg-timestamps-x86.txt", "sos_commands/kernel/dmesg"),
    ("ps/insights-core__ps-auxww-rhel7.txt", "sos_commands/process/ps_auxwww"),
    ("top/jc__top-b-n3-centos7-KiB.txt", "sos_commands/process/top_-b_-n_1"),
    ("free/jc__free-kib-centos7.txt", "sos_commands/memory/free"),
    ("lspci/insights-core__lspci-k-hp-server.txt", "sos_commands/pci/lspci_-k"),
    ("ethtool/insights-core__ethtool-g-ring-eth2.txt", "sos_commands/networking/ethtool_-g_eth2"),
    ("ethtool/hotsos__ethtool-k-features-virtio.txt", "sos_commands/networking/ethtool_-k_eth0"),
    ("ethtool/hotsos__ethtool-l-channels-virtio.txt", "sos_commands/networking/ethtool_-l_eth0"),
    ("iostat/jc__iostat-x-sysstat12-ubuntu2010.txt", "sos_commands/sysstat/iostat_-x"),
    ("mpstat/jc__mpstat-A-centos7-12h-clock.txt", "sos_commands/sysstat/mpstat_-A"),
    ("sar/sysstat-tests__sar-n-DEV-EDEV.txt", "sos_commands/sar/sar_-n_DEV"),
    ("vmstat/jc__vmstat-1-ubuntu1804-37samples.txt", "sos_commands/memory/vmstat_1_37"),
    ("sar/sysstat-tests__sar-A-from-sysstat-10.3.1-datafile.txt", "var/log/sa/sar18"),
]

PLUGINS = [
    "apparmor", "auditd", "block", "boot", "cgroups", "chrony", "cron", "crypto", "date",
    "devicemapper", "dracut", "filesys", "firewalld", "grub2", "hardware", "host", "i18n",
    "kdump", "kernel", "keyutils", "krb5", "ldap", "libraries", "login", "logrotate", "lvm2",
    "md", "memory", "multipath", "networking", "networkmanager", "nfs", "nis", "nss", "numa",
    "openssl", "pam", "pci", "process", "processor", "python", "rpm", "sar", "scsi", "selinux",
    "services", "snmp", "ssh", "sudo", "sunrpc", "systemd", "sysvipc", "tuned", "udev", "usb",
    "x11", "xfs", "yum",
]
VERBS = ["ls_-l", "cat", "show", "list", "status", "stat", "dump", "info", "find", "lsof_-b"]
ETC = ["sysconfig", "security", "pam.d", "systemd/system", "udev/rules.d", "modprobe.d",
       "sysctl.d", "cron.d", "ssh", "yum.repos.d", "NetworkManager/system-connections",
       "logrotate.d", "tuned", "audit", "selinux"]
PROC_PID_FILES = ["status", "cmdline", "limits", "stat", "statm", "io", "mountinfo",
                  "oom_score", "cgroup", "environ"]


def filler(rng, path, lines):
    """Text that is plainly filler: no tool writes it."""
    return "".join(
        f"rca bench filler for {path}: line {i + 1} of {lines}, value {rng.randrange(10**6)}\n"
        for i in range(lines)
    )


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    root = os.path.join(out, "sosreport-benchhost-2024-06-15-abcdefg")
    if os.path.exists(root):
        shutil.rmtree(root)
    made = 0

    def write(rel, text):
        nonlocal made
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        made += 1

    for fx, rel in REAL:
        src = os.path.join(FIXTURES, fx)
        if os.path.isdir(src):
            names = sorted(n for n in os.listdir(src) if n != "PROVENANCE.md")
            if not names:
                continue
            src = os.path.join(src, names[0])
        with open(src, encoding="utf-8", errors="replace") as f:
            write(rel, f.read())
    # Where kinds are, but filler inside: unusable.
    for n in range(20):
        rel = f"sos_commands/networking/ethtool_-i_veth{n:04x}"
        write(rel, filler(rng, rel, 2))
    # A few large logs (1–4 MiB).
    for name in ["messages", "secure", "audit/audit.log", "cron"]:
        rel = f"var/log/{name}"
        write(rel, filler(rng, rel, rng.randrange(12_000, 48_000)))
    # The bulk, in the proportions of a large sosreport: half of it per-process /proc files,
    # a third command outputs, the rest configuration and sysfs.
    left = files - made
    n_proc = left // 2
    n_cmd = left // 3
    n_rest = left - n_proc - n_cmd
    pid = 1
    k = 0
    while k < n_proc:
        for f in PROC_PID_FILES:
            if k == n_proc:
                break
            rel = f"proc/{pid}/{f}"
            write(rel, filler(rng, rel, rng.choice([1, 1, 2, 3, 8, 40])))
            k += 1
        pid += rng.randrange(1, 7)
    for k in range(n_cmd):
        plugin = rng.choice(PLUGINS)
        rel = f"sos_commands/{plugin}/{rng.choice(VERBS)}_{plugin}_{k:06d}"
        write(rel, filler(rng, rel, rng.choice([1, 2, 4, 10, 25, 120])))
    for k in range(n_rest):
        if k % 2:
            rel = f"etc/{rng.choice(ETC)}/conf-{k:06d}.conf"
        else:
            rel = f"sys/devices/system/node{k % 4}/item{k:06d}/value"
        write(rel, filler(rng, rel, rng.choice([1, 1, 3, 12])))
    print(f"{root}: {made} files")


if __name__ == "__main__":
    main()
