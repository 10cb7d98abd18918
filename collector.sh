#!/bin/sh
# shellcheck disable=SC2006 # backquotes on purpose, see "Command substitution" below
# collector.sh - gather raw evidence of a Linux or JVM performance incident for rca.
#
# Usage: sh collector.sh [--duration SECONDS] [--interval SECONDS] [--output DIR]
#                        [--pid PID]... [--label TEXT] [--config PATH]... [--zk HOST:PORT]...
#                        [--no-perf] [--keep-perf-data] [--live-histogram] [--deadline SECONDS]
#                        [--max-bytes N] [--max-artifact-bytes N] [--max-log-bytes N]
#                        [--max-thread-dump-bytes N] [--max-perf-script-bytes N]
#                        [--help] [--version]
#
# Writes DIR/rca-<hostname>-<UTC yyyymmddThhmmssZ>.tar.gz and prints its path as the last line
# on stdout; progress goes to stderr (and into the bundle as collector.log). Exit status:
#   0        complete
#   1        no tarball: a setup error, or the tarball or its manifest could not be written
#            (the reason is on stderr)
#   2        usage error
#   3        the tarball was written but is incomplete: the deadline was reached, or outputs
#            could not be written in full (no space left in the temp folder); meta complete = 0
#            and meta incomplete say why
#   128+N    interrupted by signal N (INT, TERM, HUP); the tarball of what was collected is
#            still written, with meta complete = 0
#
# The collector is read-only: it reads files and runs reporting commands, never changes a
# setting, never signals or restarts a target process, and talks to the network only through
# the ZooKeeper four-letter words sent to the addresses given with --zk. Choices made for that:
# `nstat -s` (do not update nstat's history file), `perf record -N` (do not fill ~/.debug),
# `-J-XX:-UsePerfData` for the JDK tools (no hsperfdata file of their own), class histograms
# of all objects (`-all`, no full GC) unless --live-histogram is given. Every command runs
# under a time budget, so a hung tool costs at most its budget, and the whole run under a
# deadline (--deadline, default the sampling window plus 600 s): no budget reaches past it, and
# once it is reached the steps left are skipped (`skipped: deadline reached`) and the tarball
# is written. A hung tool therefore never holds the run beyond the deadline plus the 5 s
# between TERM and KILL, plus the time tar takes.
#
# Budgets follow the window and the load. At the start the collector measures the load factor
#   F = 1 + L / CPUs, bounded to 1 <= F <= 4
# where L is the larger of the 1-minute load average and the tasks runnable at that moment
# (both from /proc/loadavg, this shell not counted) and CPUs the online CPUs. A one-shot tool
# gets its base budget times F: 10 s for file copies and host facts, 5 s for probes, 30 s for
# a JDK tool (attach, thread dump), 120 s for a class histogram, perf report and sadf, 300 s
# for perf script. A sampler of the window gets the window plus a margin:
#   duration + (interval + 5 + duration / 10) x F
# jstat (a JVM that starts, then samples) 10 s x F more, perf record its own `sleep` plus the
# same margin plus 60 s x F to write its data. Every budget is cut to the time left before the
# deadline. A command stopped at its budget keeps what it wrote until then (timed_out 1, exit
# 124, the note says how much). Each command runs in a process group of its own (GNU timeout
# makes one; otherwise `setsid`), and a timeout or an interrupt TERMs the whole group and KILLs
# what is left of it 5 s later: the children and grandchildren of a hung pipeline go with it.
#
# ---------------------------------------------------------------------------------------------
# Bundle layout
#   Every tar entry is under one top folder rca-<hostname>-<ts>/ ; <hostname> is `uname -n`
#   with every byte outside [A-Za-z0-9._-] replaced by `_` (the real name is in the manifest).
#   Inside, artifacts are grouped by area: system/ kernel/ cpu/ mem/ fs/ block/ net/ time/
#   proc/ (counter snapshots, per-process files of --pid targets) sysstat/ jvm/<pid>/ perf/
#   configs/ zk/.
#
# Manifest format (manifest.tsv; the analyzer's contract)
#   UTF-8 text, one record per line, fields separated by one TAB. The first line is the format
#   header, every other line starts with its record type. Tabs, CRs and newlines inside a value
#   are replaced by spaces, so a field never contains a TAB and a record never spans lines.
#   Readers must ignore record types and meta keys they do not know (later versions add some).
#
#     # rca-manifest 1
#     meta	<key>	<value>
#     artifact	<path>	<kind>	<exit>	<timed_out>	<start>	<end>	<bytes>	<truncated>	<note>	<argv>
#
#   meta keys (one line each, in this order; value may be empty):
#     collector_version  version of this script (0.4.0)
#     hostname           `uname -n`, unsanitised
#     user, uid          who ran the collector (`id -un`, `id -u`)
#     kernel, machine    `uname -r`, `uname -m`
#     started, ended     UTC epoch seconds of the run; `1732921200.123456789` where `date +%s.%N`
#                        works, else an integer (BusyBox date has no %N)
#     duration, interval the sampling window and step, in seconds, as used
#     options            the command line given (arguments joined by single spaces)
#     complete           1, or 0 when the run was interrupted by INT/TERM/HUP, reached its
#                        deadline or could not write all its outputs (0.3.0; meta incomplete
#                        says why)
#     orig_lc_all, orig_lang, orig_tz
#                        LC_ALL, LANG and TZ as found (the collector forces LC_ALL=C)
#     timeout_impl       coreutils | busybox | watchdog: how command budgets are enforced
#     sysstat_version    e.g. 12.6.1, from `iostat -V` or `mpstat -V`; empty if unknown
#   added in 0.2.0 (after the keys above, in this order):
#     label              the --label text
#     pids               target processes: the --pid values, else the JVMs found (space-separated)
#     jvms               the JVMs among them (space-separated pids)
#     perf               recorded | off (--no-perf) | not found: perf | skipped: <why> |
#                        failed: <why> | interrupted
#     perf_event_paranoid, kptr_restrict
#                        the kernel settings that decide what perf may see (empty if unreadable)
#     live_histogram, keep_perf_data
#                        1 when --live-histogram / --keep-perf-data was given, else 0
#     zk                 the --zk addresses (space-separated)
#     max_bytes, max_artifact_bytes, max_log_bytes, max_thread_dump_bytes, max_perf_script_bytes
#                        the size caps used, in bytes
#     secrets_masked     how many secret values were replaced by **** in the bundle (see
#                        redaction-log.tsv for the file and key names)
#   added in 0.3.0 (after the keys above, in this order):
#     deadline           the deadline of the whole run, seconds (--deadline)
#     incomplete         why complete is 0, reasons joined by `; ` (`interrupted by SIGTERM`,
#                        `deadline of 660 s reached: ...`, `no space left on device while
#                        writing ...`); empty when complete
#   added in 0.4.0 (after `incomplete`, before `records`): the collector's own CPU time over
#   the sampling window (see "Overhead" below); each is empty when the window did not open or
#   /proc/PID/stat could not be read
#     cpu_window         seconds from the samplers' start to the end of the last of them (the
#                        deadline's clock, /proc/uptime), to 1/100 s: `61.37`
#     collector_cpu_seconds
#                        user + system CPU seconds of the collector itself over that window: its
#                        shell, the subshells and helpers (`timeout`, `wc`, awk) of every job, and
#                        the one-shot commands it ran meanwhile (snapshots, host facts, the first
#                        thread dumps); the samplers and perf record not counted. To 1/100 s
#     collector_cpu_percent
#                        collector_cpu_seconds / cpu_window x 100: % of one CPU, to 1/100
#     samplers_cpu_seconds
#                        user + system CPU seconds of the samplers of the window (iostat, mpstat,
#                        vmstat, pidstat, sar with its sadc, jstat), perf record not counted
#     perf_record_cpu_seconds
#                        user + system CPU seconds of perf record (empty when it did not run)
#   and, last of the meta keys:
#     records            how many artifact records follow. A manifest with fewer is truncated;
#                        one without this key (from 0.3.0 on) was cut inside its meta records
#
#   artifact fields (one record for every planned artifact, also the failed and skipped ones):
#     path       relative to the top folder, e.g. sysstat/iostat-x.txt
#     kind       what the content is, independent of the path (parsers are chosen by kind; see
#                the table below)
#     exit       integer exit status; 124 = timed out, 126 = not runnable, 127 = command not
#                found; empty when the command was never started (skipped, source file absent).
#                For `A | B` artifacts (argv shows the pipe) it is A's status
#     timed_out  1 if the command was stopped because its time budget ran out, else 0; what it
#                wrote until then is kept (bytes > 0: the note says `output cut there`)
#     start, end UTC epoch seconds, empty if never started. To 1/100 s (`1732921200.12`): the
#                time comes from /proc/uptime, anchored once to the wall clock at the start of
#                the run (no fork per timestamp); where /proc/uptime cannot be read, the same
#                format as meta started
#     bytes      size of the output file as stored in the bundle; 0 if absent
#     truncated  1 if the output was cut to a size cap, else 0. Caps count the collected
#                outputs (not manifest.tsv, not collector.log): one output keeps at most
#                --max-artifact-bytes, all of them together at most --max-bytes; once the
#                total is reached, later artifacts are not started (`skipped: total size cap`).
#                GC logs (--max-log-bytes), thread dumps (--max-thread-dump-bytes) and perf
#                script (--max-perf-script-bytes) are cut while they are written (`tail -c` /
#                `| head -c`); an output of exactly that cap counts as truncated
#     note       free text, empty when all went well; begins with `not found` or `skipped` when
#                no output file exists; other notes: `timed out after Ns` (`..., the time left before
#                the deadline` when the deadline shortened the budget; `; output cut there, the
#                N bytes written before kept` when it wrote something), `permission denied:
#                ...`, `exit N: <first stderr line, or the first error line of the output>`,
#                `not runnable: ...`, `interrupted`, `truncated at N bytes (per-artifact cap|
#                total size cap|log cap|thread dump cap|perf script cap)`, `secrets masked: N
#                value(s) (keys: ...)`, `output: <line>` (a known failure the tool reports with
#                exit 0, e.g. a four-letter word not in ZooKeeper's whitelist), `write
#                failed: <why>` (the output could not be written in full: the command or the
#                shell said so, or the temp folder's filesystem was full when it ended; the
#                output may be cut); several are joined by `; `. Skipped artifacts say why:
#                `skipped: interrupted`, `skipped: deadline reached (--deadline N)`,
#                `skipped: no space left in the temp folder ...`, `skipped: total size cap
#                reached ...`, and others
#     argv       the command words joined by single spaces (`cat /proc/softirqs` for file
#                copies; `A | B` when the output went through a filter)
#
#   A record whose note begins with `not found` or `skipped` has no output file (the command
#   was never started; exit is 127 or empty); every other record has one, possibly empty.
#   Records are in the order the collector planned them. manifest.tsv and collector.log are
#   written last; collector.log has a record of its own (kind collector-log, exit and argv
#   empty). Every file of the bundle but manifest.tsv has a record.
#
# Kinds of this version (kind -> what it is; path in the bundle). `.start` / `.end` are the
# snapshots at the start and the end of the sampling window; <nic>, <pid>, <mod> are names.
#   system
#     uname              `uname -a`; system/uname.txt
#     os-release         /etc/os-release; system/os-release
#     detect-virt        `systemd-detect-virt` (exit 1 and "none" on bare metal); system/detect-virt.txt
#     systemctl-status   `systemctl status --no-pager --full --lines=20 --state=failed,activating
#                        --type=service`: the failed and restarting services with their last
#                        journal lines (no output, exit 0: none); system/systemctl-status.txt.
#                        And `systemctl status UNIT` of the service whose cgroup holds a JVM;
#                        jvm/<pid>/systemctl-status.txt. Command lines in them are masked
#     dmidecode          `dmidecode -t system` (needs root); system/dmidecode-t-system.txt
#     lspci              `lspci -k` (devices and their kernel drivers); system/lspci-k.txt
#     ps                 `ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args`,
#                        secrets masked; system/ps.txt. Where that fails, system/ps-o.txt: the
#                        same with etime (procps < 3.3), or `ps -o pid,ppid,user,vsz,rss,stat,
#                        comm,args` (BusyBox)
#     top                `top -b -n 1`, secrets masked (BusyBox's lists whole command lines);
#                        system/top.txt
#     ulimit             `ulimit -a` of a login-like shell (bash when present); system/ulimit-a.txt
#   kernel
#     cmdline            /proc/cmdline; kernel/cmdline
#     proc-modules       /proc/modules (with taint flags, unlike lsmod); proc/modules
#     lsmod              `lsmod`; kernel/lsmod.txt
#     tainted            /proc/sys/kernel/tainted (a bit mask); kernel/tainted
#     modinfo            `modinfo` of every module whose /proc/modules line ends in taint flags
#                        such as (O), (OE), (P); kernel/modinfo-tainted.txt
#     dmesg              `dmesg | tail -n 2000` (often root-only); kernel/dmesg.txt. After the
#                        window, where the journal holds no kernel line: `dmesg -T | tail -n 5000`
#                        (wall-clock times); kernel/dmesg-T.txt
#     syslog             after the window: `journalctl -k --no-pager -o short-iso --since @T |
#                        tail -n 5000`, T the start minus a day (the kernel's log with dates and
#                        zone, from the day before the window to its end); kernel/journalctl-k.txt
#     sysctl             `sysctl -a`; kernel/sysctl-a.txt
#   cpu
#     lscpu              `lscpu`; cpu/lscpu.txt
#     numactl            `numactl -H`; cpu/numactl-H.txt
#     cpuinfo            `head -n 64 /proc/cpuinfo`; cpu/cpuinfo-head.txt
#     cpufreq            scaling_governor, scaling_driver, scaling_cur_freq, scaling_max_freq,
#                        cpuinfo_max_freq of the first 16 CPUs with a cpufreq folder;
#                        cpu/cpufreq/cpu<N>/<attribute>
#     cpupower-frequency-info
#                        `cpupower frequency-info`; cpu/cpupower-frequency-info.txt
#     tuned-adm          `tuned-adm active` (exit 1 when no profile is active); cpu/tuned-adm-active.txt
#   memory
#     meminfo            /proc/meminfo; mem/meminfo
#     free               `free -m`; mem/free-m.txt
#     swaps              /proc/swaps; mem/swaps
#     swapon             `swapon --show`; mem/swapon-show.txt
#     node-numastat      /sys/devices/system/node/node<N>/numastat;
#                        sys/node/node<N>/numastat.start, .end (no .end after an interrupt)
#     file-nr            /proc/sys/fs/file-nr (file handles allocated, unused, max);
#                        proc/sys/fs/file-nr.start, .end (no .end after an interrupt)
#     thp                `grep -H . enabled defrag` in /sys/kernel/mm/transparent_hugepage (or
#                        redhat_transparent_hugepage): lines `FILE:always [madvise] never`; mem/thp.txt
#     balloon            `vmware-toolbox-cmd stat balloon`; mem/vmware-balloon.txt
#   filesystems and block devices
#     df                 `df -P` (blocks, POSIX format: 1024-blocks, one line per filesystem) and
#                        `df -iP` (inodes); fs/df-P.txt, fs/df-iP.txt
#     mounts             /proc/mounts (type and ro flag of each mount); proc/mounts
#     lsblk              `lsblk -J -b -o NAME,KNAME,MAJ:MIN,TYPE,SIZE,ROTA,SCHED,MOUNTPOINT`
#                        (JSON, util-linux >= 2.27): block/lsblk-J-b.json; where -J is unknown
#                        the same columns as a table (RHEL 6/7): block/lsblk.txt
#     sys-block-queue    `grep -H . /sys/block/*/queue/{rotational,scheduler,nr_requests}`:
#                        lines `FILE:VALUE`; block/sys-block-queue.txt
#     sys-block-slaves   `ls -1R /sys/block/*/slaves` (what each dm/md device is built on):
#                        a `FOLDER:` line, then the names under it; block/sys-block-slaves.txt
#     dmsetup-tree       `dmsetup ls --tree` (needs root); block/dmsetup-ls-tree.txt
#   network
#     ip-link            `ip -s link`; net/ip-s-link.txt
#     ip-addr            `ip addr`; net/ip-addr.txt
#     ethtool-i, ethtool-l, ethtool-k, ethtool-g, ethtool-c, ethtool-S
#                        `ethtool -i|-l|-k|-g|-c <nic>` for each interface with a device
#                        behind it (/sys/class/net/<nic>/device; lo, bridges, veth are left
#                        out); net/ethtool/<nic>/ethtool-<opt>.txt; `ethtool -S <nic>` (driver
#                        counters, per queue) at the window's start and end:
#                        net/ethtool/<nic>/ethtool-S.start, .end (no .end after an interrupt)
#     bonding            /proc/net/bonding/<bond>; net/bonding/<bond>
#     irq-affinity       one line `N<TAB>smp_affinity_list<TAB>action name` per action of each
#                        /proc/irq/N; net/irq-affinity.tsv
#     ss                 `ss -tanp` (.start, .end) and `ss -tulpn` (listening); net/ss-tanp.*,
#                        net/ss-tulpn.txt; and `ss -tin state established` at the window's end
#                        (TCP internals: rto, cwnd, retrans; not after an interrupt), cut to
#                        its first 4001 lines (the header and 2000 connections of two lines
#                        each); net/ss-tin.end
#     netstat-tanp       `netstat -tanp` / `netstat -tulpn` where ss is missing; same names
#     netstat-s          `netstat -s`; net/netstat-s.start, .end
#     nstat              `nstat -asz` (absolute counters incl. zeros, history untouched);
#                        net/nstat-asz.start, .end
#     net-dev            /proc/net/dev; proc/net/dev.start, .end
#     net-snmp           /proc/net/snmp; proc/net/snmp.start, .end
#     softnet-stat       /proc/net/softnet_stat (hex columns per CPU); proc/net/softnet_stat.*
#     ss-s               `ss -s` (socket summary: orphaned, timewait) at the window's end, not
#                        after an interrupt; net/ss-s.end
#     nf-conntrack-stat  /proc/net/stat/nf_conntrack (per-CPU drop, insert_failed, early_drop;
#                        hex, one row per CPU), where the module is loaded;
#                        proc/net/stat/nf_conntrack.start, .end (no .end after an interrupt)
#     conntrack-s        `conntrack -S` (the same counters over netlink) where that file is
#                        missing and conntrack-tools is installed; net/conntrack-S.start,
#                        .end (no .end after an interrupt)
#     proc-uptime        /proc/uptime (seconds since boot, for since-boot counters); proc/uptime.*
#     loadavg            /proc/loadavg; proc/loadavg.start, .end
#     pressure           /proc/pressure/cpu, memory, io (PSI, Linux >= 4.20);
#                        proc/pressure/<resource>.start, .end
#   time
#     chronyc-tracking   `chronyc -n tracking`; time/chronyc-tracking.txt
#     chronyc-sources    `chronyc -n sources -v`; time/chronyc-sources.txt
#     ntpq               `ntpq -pn`; time/ntpq-pn.txt
#     timedatectl        `timedatectl`; time/timedatectl.txt
#     vmware-timesync    `vmware-toolbox-cmd timesync status`; time/vmware-timesync.txt
#   counter snapshots (.start and .end)
#     softirqs           /proc/softirqs; proc/softirqs.*
#     interrupts         /proc/interrupts; proc/interrupts.*
#     proc-stat          /proc/stat; proc/stat.*
#     proc-vmstat        /proc/vmstat; proc/vmstat.*
#     diskstats          /proc/diskstats; proc/diskstats (the start snapshot, under its 0.1.0
#                        name) and proc/diskstats.end
#   samplers (one window, see below)
#     iostat             `iostat -x -t` text and `iostat -o JSON -x`; sysstat/iostat-x.txt, .json
#     mpstat             `mpstat -P ALL` text and JSON; sysstat/mpstat-P-ALL.txt, .json
#     vmstat             `vmstat -t` (plain `vmstat` where -t is unknown); sysstat/vmstat.txt
#     pidstat            `pidstat -u -d -w` (all processes) and `pidstat -t -p PIDS` (threads of
#                        the targets); sysstat/pidstat-udw.txt, sysstat/pidstat-t.txt
#     sar                `sar -n DEV`, `sar -n EDEV` and `sar -q`; sysstat/sar-n-DEV.txt,
#                        sar-n-EDEV.txt, sar-q.txt
#     sadf-json          `sadf -j saDD -- -bBdqrSuvwW -n DEV,EDEV -P ALL` for the two newest
#                        daily files of the last 2 days (today's, yesterday's) in /var/log/sa or
#                        /var/log/sysstat; sysstat/sa/saDD.json
#     jstat-gcutil       `jstat -gcutil -t PID INTERVAL_ms COUNT+1`; jvm/<pid>/jstat-gcutil.txt
#   processes and JVMs (jvm/<pid>/ for JVMs, proc/<pid>/ for other --pid targets)
#     jps                `jps -lv`, secrets masked; jvm/jps-lv.txt
#     proc-status        /proc/PID/status; <dir>/status
#     proc-limits        /proc/PID/limits; <dir>/limits
#     fd-count           open descriptors: the entries of /proc/PID/fd, counted (`ls -A`; no
#                        output when the folder cannot be listed); <dir>/fd-count
#     proc-cmdline       /proc/PID/cmdline, one argument per line, secrets masked; <dir>/cmdline.txt
#     cgroup             cgroup membership, limits and counters at the window's start and end:
#                        `cgroup<TAB>LINE` for each line of /proc/PID/cgroup, then
#                        `limit<TAB>FILE<TAB>DIR<TAB>VALUE` for each line of each readable
#                        control file (v2: memory.max, memory.high, memory.swap.max,
#                        memory.current, memory.events, cpu.max, cpu.weight, cpu.stat; v1:
#                        memory.limit_in_bytes, memory.memsw.limit_in_bytes, memory.usage_in_bytes,
#                        memory.max_usage_in_bytes, memory.failcnt, memory.oom_control,
#                        cpu.cfs_quota_us, cpu.cfs_period_us, cpu.shares, cpu.stat) in the
#                        process's cgroup and every ancestor up to the mount point, and
#                        memory.stat (v1 and v2) of the process's own cgroup only;
#                        <dir>/cgroup.tsv.start, <dir>/cgroup.tsv.end
#     java-version       `/proc/PID/exe -version` (stderr kept: that is where java prints it);
#                        jvm/<pid>/java-version.txt
#     jcmd-vm-version    `jcmd PID VM.version`; jvm/<pid>/vm-version.txt (also the attach test)
#     jcmd-vm-flags      `jcmd PID VM.flags`; jvm/<pid>/vm-flags.txt
#     jcmd-vm-command-line
#                        `jcmd PID VM.command_line`, secrets masked; jvm/<pid>/vm-command-line.txt
#     jcmd-vm-system-properties
#                        `jcmd PID VM.system_properties`, secrets masked;
#                        jvm/<pid>/vm-system-properties.txt
#     thread-dump        `jcmd PID Thread.print` (else `jstack PID`), at the window start (.1)
#                        and after it (.2); jvm/<pid>/thread-dump.1.txt, thread-dump.2.txt
#     gc-heap-info       `jcmd PID GC.heap_info` (JDK 9+: heap and metaspace, used and
#                        committed) beside each thread dump; jvm/<pid>/gc-heap-info.1.txt, .2.txt
#     jmap-heap          `jmap -heap PID` where GC.heap_info is missing (JDK 8: "Unknown diagnostic
#                        command"), once after the window; jvm/<pid>/jmap-heap.txt
#     class-histogram    `jcmd PID GC.class_histogram -all` (else `jmap -histo PID`): all
#                        objects, no GC; live objects (a full GC) only with --live-histogram;
#                        jvm/<pid>/class-histogram.txt
#     gc-log             `tail -c MAX_LOG_BYTES` of the GC log named by -Xloggc:FILE or
#                        -Xlog:gc...:[file=]FILE (%p, %t expanded; JDK 8 rotation's .N.current
#                        preferred); jvm/<pid>/gc.log
#     jvm-threads        thread counts by name from /proc/PID/task/*/comm: `count<TAB>name`,
#                        largest first; jvm/<pid>/threads.tsv
#   profile
#     perf-record        what `perf record -F 99 -a -g -N -o perf.data -- sleep S` printed
#                        (S = min(duration, 30), inside the window; perf.data is written to the
#                        temp folder, so perf is skipped, with the reason, when its free space is
#                        below 2 KiB per CPU per sample second); perf/perf-record.log
#     perf-report        `perf report --stdio --no-children --sort comm,dso,symbol` and
#                        `perf report --stdio --sort dso`; perf/perf-report-comm-dso-symbol.txt,
#                        perf/perf-report-dso.txt
#     perf-script        `perf script` (capped); perf/perf-script.txt
#     perf-data          perf.data itself, only with --keep-perf-data; perf/perf.data
#   configuration and services (secret values replaced by ****, see below)
#     config             a file given with --config (or found under a --config directory);
#                        configs/<its absolute path>. Not copied, with a record `skipped: not
#                        copied: <what it is>`: key stores (*.jks, *.p12, *.pfx, *.keystore,
#                        *.truststore, ...), keytabs, private keys (*.key, id_rsa, files with a
#                        PEM private key), credential stores (.netrc, .pgpass, .git-credentials,
#                        htpasswd, shadow) and binary files; a symbolic link under a folder gets
#                        `skipped: symbolic link to <target> (...)` and is not followed
#     zoo-cfg            the zoo.cfg of a ZooKeeper JVM (the file its arguments name, else the
#                        one in its classpath conf dir); configs/<its absolute path>
#     hadoop-site-xml    *-site.xml of a Hadoop/YARN JVM (HADOOP_CONF_DIR / YARN_CONF_DIR of the
#                        collector or the process, -Dhadoop.conf.dir, classpath conf dirs);
#                        configs/<its absolute path>
#     zk-mntr, zk-wchs, zk-conf, zk-srvr
#                        the four-letter word's answer from each --zk HOST:PORT (`nc`);
#                        zk/<host>_<port>/<word>.txt
#     redaction-log      one line `source<TAB>key` per masked value (never the value);
#                        redaction-log.tsv
#   collector.log -> collector-log (this script's own log)
#
# The sampling window: iostat, mpstat (text and JSON), vmstat, pidstat (all processes and the
# targets' threads), sar -n DEV / EDEV / -q, jstat per JVM and perf record all start together in
# the background and run COUNT = duration / interval steps. mpstat, pidstat and sar print
# their first sample after one interval, while iostat's and vmstat's first report is the
# since-boot summary and jstat's first sample is taken at once, so those are given COUNT+1
# reports: reports 2..COUNT+1 then cover the same window as mpstat's COUNT samples. A `sleep
# duration` pacer runs beside them, so the start/end snapshots always span at least the
# requested window even when sysstat is missing. While the window runs the collector takes the
# .start snapshots and the first thread dumps, then the one-off host facts (cheap commands);
# the .end snapshots are taken as soon as the pacer ends (between two host-fact commands, or
# after them). Heavy work (second thread dumps, class histograms, perf report and script,
# sadf) runs after the window so it does not disturb the samples.
#
# JVMs: every process whose /proc/PID/comm is `java` and whose argv[0] ends in `java`, plus
# what `jps -lv` lists; --pid limits the set (a --pid whose maps show libjvm.so is a JVM too).
# JDK tools are taken from the JVM's own JDK when it has them (same version), else from PATH.
# HotSpot only lets the JVM's own user (or root) attach: when running as root the tools run as
# the JVM's owner through `setpriv`, else `runuser`, else `su`; without root, a JVM of another
# user cannot be attached and its records say why (the tool's own message, e.g. "Unable to open
# socket file" or "Operation not permitted").
#
# Secrets: values of keys that name a secret (case and camelCase aside: the key holds passw,
# passphrase, secret, token, credential, apikey, privatekey or accesskey, its last word is pw,
# pwd, pass or auth, or key after another word: db.pwd, smtp.pw, --db-pass, MYSQL_PWD,
# api.auth, npm's _auth, ssl.key, apiKey; not a key about a secret such as --tls-private-key-file, token.ttl
# or keyStoreType, nor the values true, false or the path of a key or configuration file) are
# replaced by `****` while collecting: in `k=v`, `k: v`, `k v`,
# continued `k=v\` lines, `-Dk=v`, `--k v`, `--k=v`, JSON `"k":"v"` anywhere on a line, YAML
# block scalars (`k: |` and `k: >`), Hadoop's <property> with <name> before or after <value>,
# `<k>v</k>`, XML attributes (`k="v"`, name="k" value="v", <entry key="k">v</entry>). So are
# values recognised by their shape: Authorization, Proxy-Authorization, Cookie, Set-Cookie,
# X-Api-Key and X-Auth-Token headers, bearer tokens, JWTs, `scheme://user:****@` (also in
# Java's escaped `\:` form), JDBC `user/****@` and `Pwd=****;`, mysql's `-p****`, curl's `-u
# user:****`, sqlplus's `user/****@`, PEM private key blocks, and a long token of letters and
# digits after a secret-sounding word. This covers ps, top, jps, /proc/PID/cmdline, the JVM
# command lines and system properties and every copied configuration file. Configuration files
# are copied as data, never sourced; files that are not settings (key stores, keytabs, private
# keys, credential stores, binary files) are not copied at all, and links under a --config
# folder are recorded with their target, never followed. redaction-log.tsv names the file and
# key of each masked value.
#
# Interrupts: INT, TERM and HUP stop the running commands, skip what was not started yet
# (`skipped: interrupted`), take the end-of-window snapshots, and still write the tarball with
# meta complete = 0; the final tar itself is not interrupted. (A shell started with SIGINT
# ignored, e.g. `sh collector.sh &` from a script, cannot trap it; TERM still works there.)
#
# Deadline: the run's time is counted from its start on /proc/uptime (immune to wall-clock
# steps). Before each artifact the collector checks what is left: nothing -> the artifact is
# recorded `skipped: deadline reached (--deadline N)`; less than the command's budget -> the
# budget is cut to what is left. The samplers of the window and the end-of-window snapshots
# are bound the same way; the redaction log, the manifest and the tarball are written after it.
# A NIC whose `ethtool` query timed out gets no further ethtool queries (they would hang too).
#
# Write failures: outputs go to the temp folder (TMPDIR, default /tmp), which may fill up
# during the run (a disk-full incident is one to collect). Three checks find a lost output:
# the command's or the shell's own message on stderr (`No space left on device`, `Disk quota
# exceeded`, `File too large`); a test write after every command (one 4 KiB block appended to
# a probe file, a builtin write with no fork), which fails when no block is free; and, for the
# manifest, its line count against the records meant. An affected output's note says `write
# failed: ...`; while the probe fails, later artifacts are skipped (`skipped: no space left in
# the temp folder ...`). A reserve file of 256 KiB, written at the start and deleted just
# before the manifest, keeps room for the manifest; if even the manifest cannot be written in
# full, a short one (meta records only, complete = 0) is tried, and failing that the run ends
# with status 1 and no tarball. A filesystem that compresses or deduplicates (btrfs, ZFS) may
# accept the test write while full; the commands' own messages still mark their outputs.
#
# Overhead: a command costs a few forks and execs (its subshell, `timeout`, the command, `wc`),
# nothing more: timestamps come from /proc/uptime with a builtin read, the bookkeeping files
# live on /dev/shm (tmpfs; creating files on ext4 cost as much again), one awk handles each
# multi-file artifact, and no loop forks per line. Measured by tests/collector/run.sh (60 s
# window, perf off, 2-CPU VM): about 0.6 s of CPU for the collector itself (1 % of one CPU;
# the samplers not counted). Every run measures it over its own window and writes it into the
# manifest (meta collector_cpu_seconds, collector_cpu_percent): the window's CPU time of this
# shell and its waited-for children (/proc/$$/stat: utime, stime, cutime, cstime) at its start
# and end, less what each sampler's job subshell saw its command take (its cutime and cstime
# just before and after waiting for it; a builtin read of /proc/self/stat, no fork). A 60 s run
# (perf off, no JVM, 2-CPU VM kept at a load average of 12 by other work) wrote 1.12 s over its
# 61.3 s window, 1.82 % of one CPU; about a fifth of that is one-shot tools (`tuned-adm`, a
# Python program, 0.21 s; `sysctl -a`, `ps`, `top`, `lspci`), the rest the shell's forks per job.
# Where no timeout tool is found, the watchdogs' own wake-ups are not counted (they are not
# waited for). The JDK tools are JVMs themselves: about 0.1 s of CPU each (their
# own JIT and GC kept small with -XX:TieredStopAtLevel=1 -XX:+UseSerialGC), about 0.9 s per
# examined JVM (java -version, 4 x VM.*, 2 thread dumps, 1 class histogram).
#
# Testing hooks: RCA_ROOT (default empty) is prefixed to every file the collector reads
# (/proc/..., /sys/..., /etc/...), so tests can point it at a fake tree. RCA_SA_DIRS (default
# "/var/log/sa /var/log/sysstat") lists where the daily sysstat files are looked for.
# ---------------------------------------------------------------------------------------------

# Command substitution: this file writes `cmd`, not $(cmd). bash (5.2.15 here; bash is /bin/sh
# on Fedora, RHEL, Arch) re-parses a $(...) in the main shell when expanding it and runs pending
# traps from inside that parse; a signal landing then breaks both parses ("unexpected EOF while
# looking for matching `)'"), the trap never runs and the interrupt is lost. A backquoted body
# is parsed only in the child. Measured with bash 5.2.15: a loop of $(...) lost about 1 trapped
# signal in 1000 and this collector about 1 SIGTERM in 15 sent during its first second; with
# backquotes none of ~9000 and none of 180. Keep bodies simple (no nesting, no backslashes):
# assign the result, then quote the variable. One line of a file is read with `read -r v <file`.

# -u catches misspelt variables. No -e: here a failing command is data to record, never a
# reason to stop; every status is checked explicitly.
set -u

# Until the temp tree exists an interrupt is only remembered; it is acted on (a tarball of
# nothing, complete = 0) as soon as on_signal can work. See "From here on" below.
pending_signal=
trap 'pending_signal=INT' INT
trap 'pending_signal=TERM' TERM
trap 'pending_signal=HUP' HUP

collector_version=0.4.0

# Remember the caller's locale and zone for the manifest before overriding them. ${X-} keeps
# `set -u` quiet when they are unset.
orig_lc_all=${LC_ALL-}
orig_lang=${LANG-}
orig_tz=${TZ-}

# Stable output: C locale (decimal point, no translated headers), ISO times in sysstat
# (`iostat -t`, mpstat's time column) and never colour escapes, whatever the terminal.
LC_ALL=C
S_TIME_FORMAT=ISO
S_COLORS=never
export LC_ALL S_TIME_FORMAT S_COLORS

# Options meant for the caller's own Java programs would also reach the JDK tools we start
# (and make them print "Picked up ..." or fail on a large -Xmx); the tools get none of them.
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS

# Evidence can be sensitive (hostnames, module lists): the temp tree and the tarball are
# private to the invoking user.
umask 077

# Reporting tools such as lsmod live in sbin, which is often not in an unprivileged PATH.
# Appending (not prepending) keeps whatever the caller chose first.
case ":${PATH-}:" in *:/usr/sbin:*) ;; *) PATH=${PATH-}:/usr/sbin ;; esac
case ":$PATH:" in *:/sbin:*) ;; *) PATH=$PATH:/sbin ;; esac
export PATH

root=${RCA_ROOT-}
sa_dirs=${RCA_SA_DIRS-/var/log/sa /var/log/sysstat}

# Defaults of the options.
duration=60
interval=1
outdir=.
max_bytes=200000000
max_artifact_bytes=50000000
max_log_bytes=10000000
max_thread_dump_bytes=20000000
max_perf_script_bytes=50000000
opt_pids=
opt_label=
opt_configs=         # newline-separated, so paths may contain spaces
opt_zks=
no_perf=0
keep_perf_data=0
live_histogram=0
deadline=            # --deadline; empty: duration + deadline_margin
deadline_margin=600  # after the window: second thread dumps, histograms, perf report, sadf

# Time budgets in seconds, on an idle host: load_scale multiplies them by the load factor
# (see "Budgets follow the window and the load" in the header). Reading a /proc file or running
# uname is instantaneous; the budget only bounds a kernel or tool that hangs.
budget_quick=10      # file copies, uname, lsmod, most host facts
budget_probe=5       # `iostat -V` and the JSON trial
budget_jvm=30        # one JDK tool run (attach, thread dump)
budget_histo=120     # a class histogram walks the whole heap
budget_post=120      # perf report, sadf
budget_script=300    # perf script
budget_jstart=10     # jstat's JVM start-up, on top of the window's budget
budget_perfw=60      # perf record writing its data, on top of the window's budget
budget_tar=600       # writing the tarball (not scaled: it runs after the deadline)
kill_grace=5         # after TERM, wait this long before KILL
load_pct=100         # the load factor F in percent (100-400), set by load_scale
load_why=            # how it was measured, for the log

# The JDK tools are JVMs: keep their own start-up cheap and leave no hsperfdata file behind.
jvm_tool_opts="-J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData"

# Run state.
log=                 # collector.log once the bundle folder exists
tmp=                 # private temp dir
state=               # per-job bookkeeping files (outside the bundle; on /dev/shm if possible)
top=                 # bundle folder
part=                # tarball being written (removed by cleanup unless moved into place)
running=             # ids of interruptible jobs started and not yet reaped
spawn_exempt=0       # 1 while starting a job an interrupt must not stop (tar)
stop_flag=           # file that tells starting jobs an interrupt happened
seq=0
cur_id=
total_bytes=0
interrupted=0
signal_status=0      # 128 + number of the first INT/TERM/HUP received
exit_status=0
closing=0            # 1 while taking the end-of-window snapshot, allowed after an interrupt
eth_hung=            # NICs whose `ethtool` query timed out: asked nothing more
timeout_impl=watchdog
timeout_busybox_t=0
timeout_k=0          # 1: the timeout tool takes -k GRACE (KILL after TERM)
group_cmd=           # `setsid` when commands need it for a process group of their own
frac_sleep=0         # 1: sleep takes fractions of a second (GNU, BusyBox)
json_why=
clock=s
boot_cs=             # boot time in 1/100 s since the epoch (see stamp)
sysstat_version=
last_exit=           # exit field of the last finished artifact
last_note=           # note of the last finished artifact
masked_total=0
win=none             # sampling window: none | open | closing | closed
win_pacer=           # job id of the pacer
cw_jobs=             # job ids of the samplers
cw_cpu0=             # this shell's CPU ticks (own + waited-for children) when the window opened
cw_t0=               # and the deadline's clock then (1/100 s)
cpu_window=          # meta cpu_window, collector_cpu_seconds, collector_cpu_percent,
collector_cpu_s=     # samplers_cpu_seconds, perf_record_cpu_seconds (see window_account)
collector_cpu_pct=
samplers_cpu_s=
perf_cpu_s=
made_dirs=" "        # bundle folders created so far
targets=             # target pids (space-separated)
jvms=                # JVM pids among them
perf_state=
perf_why=
perf_rec_id=
perf_paranoid=
kptr_restrict=
copied=" "           # configuration files copied so far (absolute paths, |-separated)
mono_src=wall        # the deadline's clock: uptime (/proc/uptime) | wall
dl_end=              # the deadline on that clock, 1/100 s
dl_exempt=0          # 1 while finishing (redaction log, manifest, tar): no deadline
dl_skipped=0         # artifacts skipped because the deadline was reached
dl_cut=0             # commands that timed out on a budget the deadline had shortened
probe=               # the probe file of the temp folder's free space (see space_ok)
probe_n=0            # blocks in it
reserve=             # the reserve file, deleted to make room for the manifest
tmp_full=0           # 1 while the last test write failed
wf_first=            # the first output lost to a write failure
wf_n=0               # outputs that may be incomplete for it
wf_skipped=0         # artifacts skipped for lack of space
rec_n=0              # artifact records written
rec_lost=0           # artifact records that could not be written
meta_n=0             # meta records written into the manifest

tab='	'
# (awk rather than printf '\r': backquoted bodies here carry no backslashes, see above)
cr=`awk 'BEGIN { printf "%c", 13 }'`
nl='
'
sq="'"
dq='"'

# Job options, set just before run/sampler and consumed (reset) by prepare:
#   o_in      stdin file            o_merge   1: stderr into the output (java -version)
#   o_filter  shell text of a filter the output goes through (`head -c N`); the artifact's
#             exit is still the command's    o_fdisp   how the filter is shown in argv
#   o_cap     a streaming size cap (bytes) and o_capwhy its name in the note
#   o_disp    argv to show instead of the real one    o_need    command that must exist
#   o_mask    1: mask secrets (adds the mask.awk filter); o_msrc the source name for the log
#   o_warn    an extended regex; a matching output line is quoted in the note
#   o_fail    what a failure means, for the note when the tool itself says nothing
opts_reset() {
    o_in=/dev/null
    o_merge=0
    o_filter=
    o_fdisp=
    o_cap=
    o_capwhy=
    o_disp=
    o_need=
    o_mask=0
    o_msrc=
    o_warn=
    o_fail=
}
opts_reset

# The body of every `A | B` artifact: runs A with its status saved in $1, feeding filter $2.
# shellcheck disable=SC2016 # expanded by the inner sh, not here
pipe_prog='r=$1; f=$2; shift 2; { "$@"; echo "$?" >"$r"; } | eval "$f"'

# ---------------------------------------------------------------------------------------------
# Small helpers

# say: a timestamped line on stderr and in the log, for the few notable events. (The log is
# best effort: a line that cannot be written to it, the temp folder being full, is only lost;
# the outputs' own checks say what was lost.)
say() {
    printf 'rca-collector: %s\n' "$*" >&2
    if [ -n "$log" ]; then
        sy_t=`date -u +%Y-%m-%dT%H:%M:%SZ`
        printf '%s %s\n' "$sy_t" "$*" 2>/dev/null >>"$log"
    fi
}

# trace: the same without the timestamp (one per artifact; the manifest has the times), so
# that progress costs no fork.
trace() {
    printf 'rca-collector: %s\n' "$*" >&2
    if [ -n "$log" ]; then
        printf '  %s\n' "$*" 2>/dev/null >>"$log"
    fi
}

err() {
    say "error: $*"
}

die() {
    err "$*"
    exit 1
}

# `command -v` is the POSIX way to ask; `which` is not everywhere and lies on some systems.
have_cmd() {
    command -v "$1" >/dev/null 2>&1
}

need_cmd() {
    if ! have_cmd "$1"; then
        die "need '$1' (command not found); install it or add its directory to PATH"
    fi
}

# clean VALUE: set cl_v to VALUE with TAB, CR and LF replaced by spaces, so that it fits in one
# manifest field. Forks only when there is something to replace.
clean() {
    cl_v=$1
    case $cl_v in
        *"$tab"* | *"$cr"* | *"$nl"*) cl_v=`printf '%s' "$1" | tr "$tab$cr$nl" '   '` ;;
    esac
}

# q VALUE: set q_out to VALUE quoted for sh (single quotes).
q() {
    case $1 in
        *"$sq"*)
            q_pat="s/$sq/$sq$dq$sq$dq$sq/g"
            q_out=`printf '%s' "$1" | sed "$q_pat"`
            q_out="'$q_out'"
            ;;
        *) q_out="'$1'" ;;
    esac
}

is_uint() {
    case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac
}

# decimal NUMBER: set dc_n to NUMBER without leading zeros, which $(( )) would read as octal.
decimal() {
    dc_n=$1
    while :; do
        case $dc_n in 0?*) dc_n=${dc_n#0} ;; *) break ;; esac
    done
}

# in_list WORD LIST: 0 if WORD is one of the space-separated words of LIST.
in_list() {
    case " $2 " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# wall: epoch seconds from the wall clock, sub-second where the platform's date has %N (probed
# once in probe_clock). Used for meta started/ended.
wall() {
    case $clock in
        ns) date +%s.%N ;;
        s) date +%s ;;
        # POSIX awk: the second srand() returns the seed set by the first, the time of day.
        *) awk 'BEGIN { srand(); printf "%d\n", srand() }' ;;
    esac
}

# stamp: set st_v to the epoch seconds for the start and end of every job, without a fork:
# /proc/uptime (1/100 s, a builtin read) plus the boot time in 1/100 s that probe_clock derived
# from the wall clock once. Falls back to wall. (Each `date` costs a fork and an exec; with two
# per job they were the largest share of the collector's own CPU time.)
stamp() {
    if [ -n "$boot_cs" ] && read -r nw_up _ 2>/dev/null </proc/uptime; then
        # 12345.67 -> 1234567; the 1 in front keeps a fraction such as 08 from reading as octal.
        nw_cs=$((${nw_up%.*} * 100 + 1${nw_up#*.} - 100 + boot_cs))
        st_v=${nw_cs%??}.${nw_cs#"${nw_cs%??}"}
    else
        st_v=`wall`
    fi
}

epoch_s() {
    if [ "$clock" = awk ]; then
        awk 'BEGIN { srand(); printf "%d\n", srand() }'
    else
        date +%s
    fi
}

# cpu_ticks FILE: set ck_own to utime + stime and ck_kids to cutime + cstime (clock ticks) of
# the process whose /proc/PID/stat FILE is (fields 14 to 17; counted after the command name,
# which may hold spaces and parentheses, hence from its last `) `). A builtin read, no fork.
# Returns 1, both empty, when FILE cannot be read or is not in that shape.
cpu_ticks() {
    ck_own=
    ck_kids=
    read -r ck_line 2>/dev/null <"$1" || return 1
    ck_rest=${ck_line##*) }
    # shellcheck disable=SC2086 # split into its fields on purpose: numbers and a state letter
    set -- $ck_rest
    [ "$#" -ge 15 ] || return 1
    for ck_f in "${12}" "${13}" "${14}" "${15}"; do
        is_uint "$ck_f" || return 1
    done
    ck_own=$((${12} + ${13}))
    ck_kids=$((${14} + ${15}))
}

# cents N: set cn_v to N hundredths written as a decimal (`6137` -> `61.37`, `5` -> `0.05`).
cents() {
    cn_v=$(($1 / 100)).$(($1 % 100 / 10))$(($1 % 10))
}

probe_clock() {
    clock=s
    pc_t=`date +%s.%N 2>/dev/null`
    # GNU date prints 1732921200.123456789; BusyBox prints a literal `%N`; others fail.
    case $pc_t in
        *[!0-9.]* | '' | .* | *. | *.*.*)
            pc_t=`date +%s 2>/dev/null`
            is_uint "$pc_t" || clock='awk'
            ;;
        *.*) clock='ns' ;;
    esac
    # Anchor /proc/uptime to the wall clock (read right after date, within a millisecond).
    boot_cs=
    [ "$clock" = awk ] && return 0
    read -r pc_up _ 2>/dev/null </proc/uptime || return 0
    case $pc_up in [0-9]*.[0-9][0-9]) ;; *) return 0 ;; esac
    pc_frac=00
    case $pc_t in
        *.*)
            pc_frac=${pc_t#*.}00
            pc_frac=${pc_frac%"${pc_frac#??}"}
            ;;
    esac
    boot_cs=$((${pc_t%.*} * 100 + 1$pc_frac - 100 - ${pc_up%.*} * 100 - 1${pc_up#*.} + 100))
}

# mono: set mo_cs to the deadline's clock in 1/100 s: /proc/uptime (a builtin read, no fork;
# it does not jump when the wall clock is set), else the wall clock's seconds (one fork).
mono() {
    if [ "$mono_src" = uptime ] && read -r mo_up _ 2>/dev/null </proc/uptime; then
        # 12345.67 -> 1234567; the 1 in front keeps a fraction such as 08 from reading as octal.
        mo_cs=$((${mo_up%.*} * 100 + 1${mo_up#*.} - 100))
    else
        mo_s=`epoch_s`
        mo_cs=$((mo_s * 100))
    fi
}

# deadline_start: fix the deadline, `deadline` seconds from now.
deadline_start() {
    mono_src=wall
    if read -r mo_up _ 2>/dev/null </proc/uptime; then
        case $mo_up in [0-9]*.[0-9][0-9]) mono_src=uptime ;; esac
    fi
    mono
    dl_end=$((mo_cs + deadline * 100))
}

# dl_left: set dl_s to the whole seconds left before the deadline (0 or less once it is
# reached; a large number while finishing, where it does not apply).
dl_left() {
    if [ "$dl_exempt" = 1 ] || [ -z "$dl_end" ]; then
        dl_s=999999
        return 0
    fi
    mono
    dl_s=$(((dl_end - mo_cs) / 100))
}

# dl_over: 0 when the deadline has been reached.
dl_over() {
    dl_left
    [ "$dl_s" -lt 1 ]
}

# space_ok: 0 while the temp folder's filesystem has room, tested by appending one 4 KiB block
# to the probe file (a builtin write, no fork): 4096 bytes from any offset need at least one
# new block, so the write fails exactly when none is free. Every 32 blocks the file is emptied,
# only after a write that succeeded (emptying a file in a full filesystem would free the very
# blocks the next test write takes). Sets tmp_full.
space_ok() {
    [ -n "$probe" ] || return 0
    if printf '%4096s' '' 2>/dev/null >>"$probe"; then
        tmp_full=0
        probe_n=$((probe_n + 1))
        if [ "$probe_n" -ge 32 ]; then
            : 2>/dev/null >"$probe"
            probe_n=0
        fi
        return 0
    fi
    tmp_full=1
    return 1
}

usage() {
    cat <<EOF
Usage: sh collector.sh [OPTIONS]

Collect performance evidence of this Linux host (and its JVMs) into one tarball for rca.

Options:
  --duration SECONDS       length of the sampling window (default 60)
  --interval SECONDS       sampling step of the sysstat tools and jstat (default 1)
  --output DIR             where to write the tarball (default: current directory)
  --pid PID                a target process (repeatable); limits the JVMs examined to these.
                           Default: every JVM found
  --label TEXT             free text recorded in the manifest (e.g. "baseline", "slow pool")
  --config PATH            copy a configuration file, or the files under a directory
                           (repeatable; links under it are not followed); secret values
                           are masked, key stores, private keys and binaries not copied
  --zk HOST:PORT           ask this ZooKeeper server for mntr, wchs, conf and srvr
                           (repeatable); the only network traffic the collector makes
  --no-perf                do not run perf record
  --keep-perf-data         also put perf.data into the tarball
  --live-histogram         class histogram of live objects only (forces a full GC!)
  --deadline SECONDS       bound of the whole run (default: --duration + 600); no command's
                           budget reaches past it, and once it is reached the remaining steps
                           are skipped and the tarball is written (exit status 3)
  --max-bytes N            total size cap of the collected outputs (default 200000000);
                           once reached, further artifacts are skipped and recorded so
  --max-artifact-bytes N   per-artifact cap; larger outputs are cut (default 50000000)
  --max-log-bytes N        how much of the end of a GC log to keep (default 10000000)
  --max-thread-dump-bytes N  cap of one thread dump (default 20000000)
  --max-perf-script-bytes N  cap of the perf script output (default 50000000)
  --help                   show this help
  --version                show the version

Writes DIR/rca-<hostname>-<UTC yyyymmddThhmmssZ>.tar.gz and prints its path last on stdout.
Run as root for the complete evidence set; without root it collects what it can and records
why the rest is missing.

Exit status: 0 complete; 1 no tarball (setup error, or the tarball or its manifest could not
be written); 2 usage error; 3 tarball written but incomplete (deadline reached, or outputs
lost for lack of space in TMPDIR; its manifest says why); 128+N interrupted by signal N
(tarball of what was collected written).
EOF
}

usage_error() {
    printf 'rca-collector: %s\n' "$1" >&2
    usage >&2
    exit 2
}

# ---------------------------------------------------------------------------------------------
# Time budgets. Every collection command runs under tmo, which picks one implementation once,
# by how `timeout` behaves (not by its --help text):
#   coreutils  `timeout 1 true` works and `timeout 0.01 sleep 1` exits 124: GNU-compatible
#              `timeout -k GRACE SECS cmd` (also uutils, FreeBSD). It makes a process group of
#              its own and signals all of it.
#   busybox    `timeout 1 true` works but a timeout exits 128+15 (BusyBox 1.30 and later; with
#              -k GRACE where it takes it), or only `timeout -t 1 true` works (older BusyBox).
#              It execs the command in its own pid and signals only that pid; a timeout is
#              inferred from that status plus the elapsed time.
#   watchdog   no usable timeout tool: a background loop TERMs (then KILLs) the command when the
#              budget is spent on the deadline's clock (it sleeps what is left, in fractions of
#              a second where sleep takes them), leaving a marker file behind.
# In all cases a timed-out command is reported as exit 124 with timed_out = 1. With busybox and
# watchdog each command is started through `setsid` (util-linux or BusyBox), so that it too
# has a process group of its own. When a command timed out or was interrupted, group_end TERMs
# its whole group and KILLs what is left after kill_grace: a pipeline's grandchildren, or a
# child that ignores TERM, do not outlive it. (Without setsid, busybox and watchdog signal only
# the command's own pid.)

probe_timeout() {
    timeout_impl=watchdog
    timeout_busybox_t=0
    timeout_k=0
    if have_cmd timeout; then
        if timeout 1 true >/dev/null 2>&1; then
            timeout_impl=busybox
            timeout -k 1 1 true >/dev/null 2>&1 && timeout_k=1
            # GNU timeout exits 124 when the time is up; BusyBox 128+15, or 1 when it takes no
            # fraction of a second.
            timeout 0.01 sleep 1 >/dev/null 2>&1
            if [ $? = 124 ] && [ "$timeout_k" = 1 ]; then
                timeout_impl=coreutils
            fi
        elif timeout -t 1 true >/dev/null 2>&1; then
            timeout_impl=busybox
            timeout_busybox_t=1
        fi
    fi
    sleep 0.01 2>/dev/null && frac_sleep=1
    group_cmd=
    if [ "$timeout_impl" != coreutils ] && have_cmd setsid && setsid true >/dev/null 2>&1; then
        group_cmd=setsid
    fi
}

# load_scale: measure the load factor F (load_pct = 100 x F; see "Budgets follow the window and
# the load" in the header) and scale the one-shot budgets by it. The host's own /proc, even
# under RCA_ROOT: it is this run's time that is budgeted.
load_scale() {
    ls_cpus=`getconf _NPROCESSORS_ONLN 2>/dev/null`
    if ! is_uint "$ls_cpus" || [ "$ls_cpus" -lt 1 ]; then
        ls_cpus=`grep -c '^processor' /proc/cpuinfo 2>/dev/null`
        { is_uint "$ls_cpus" && [ "$ls_cpus" -ge 1 ]; } || ls_cpus=1
    fi
    ls_load=0
    ls_avg=unknown
    ls_run=unknown
    if read -r ls_avg _ _ ls_rt _ 2>/dev/null </proc/loadavg; then
        case $ls_avg in
            [0-9]*.[0-9][0-9]) ls_load=$((${ls_avg%.*} * 100 + 1${ls_avg#*.} - 100)) ;;
        esac
        # Runnable tasks now / all tasks; this shell, reading, is one of them.
        ls_run=${ls_rt%/*}
        if is_uint "$ls_run" && [ "$ls_run" -ge 1 ]; then
            ls_run=$((ls_run - 1))
            [ $((ls_run * 100)) -gt "$ls_load" ] && ls_load=$((ls_run * 100))
        fi
    fi
    load_pct=$((100 + ls_load / ls_cpus))
    [ "$load_pct" -le 400 ] || load_pct=400
    for ls_b in quick probe jvm histo post script jstart perfw; do
        eval "budget_$ls_b=\$((budget_$ls_b * load_pct / 100))"
    done
    load_why="load average $ls_avg, $ls_run other task(s) runnable, $ls_cpus CPU(s): budgets x ${load_pct%??}.${load_pct#?}"
}

# nap CS: sleep about CS hundredths of a second (at most 1 s; a whole second where sleep takes
# no fractions).
nap() {
    if [ "$frac_sleep" = 1 ] && [ "$1" -lt 100 ]; then
        nap_f=$(($1 + 100))
        sleep "0.${nap_f#1}"
    else
        sleep 1
    fi
}

# alive PID GROUP: 0 while the command (its process group when GROUP is 1) has a process that
# is not a zombie. A grandchild's zombie belongs to init once its parent died, and some inits
# (in containers) reap late: it must not count as a survivor.
alive() {
    if [ "$2" != 1 ]; then
        kill -0 "$1" 2>/dev/null
        return
    fi
    kill -0 "-$1" 2>/dev/null || return 1
    [ -r /proc/self/stat ] || return 0
    # Fields after the command name: state, ppid, pgrp.
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$1" '
        { s = $0; sub(/.*[)] /, "", s); split(s, f, " ") }
        f[3] == g && f[1] != "Z" { a = 1 }
        END { exit !a }'
}

# group_end PID GROUP: TERM the command (its whole process group when GROUP is 1), then KILL
# what is left of it once kill_grace seconds have passed on the deadline's clock.
group_end() {
    ge_t=$1
    [ "$2" = 1 ] && ge_t=-$1
    kill -TERM "$ge_t" 2>/dev/null || return 0
    mono
    ge_end=$((mo_cs + kill_grace * 100))
    while alive "$1" "$2"; do
        mono
        if [ "$mo_cs" -ge "$ge_end" ]; then
            kill -KILL "$ge_t" 2>/dev/null
            return 0
        fi
        nap 10
    done
}

# watchdog PID GROUP END MARKER: run in the background next to the command; END is the time
# on the deadline's clock (1/100 s, see mono) when the budget is spent. It wakes at least once
# a second to see whether the command is gone, and at END exactly rather than after a count
# of sleeps (which drifts by a fork per second, more on a busy host).
watchdog() {
    while :; do
        mono
        wd_left=$(($3 - mo_cs))
        [ "$wd_left" -gt 0 ] || break
        nap "$wd_left"
        kill -0 "$1" 2>/dev/null || exit 0
    done
    : >"$4"
    group_end "$1" "$2"
    exit 0
}

# tmo PREFIX BUDGET EXEMPT INFILE CMD [ARG...]: run CMD with a time budget and INFILE as its
# stdin, return its status (124 when it timed out, leaving PREFIX.timedout). (stdin is
# redirected here, on the background command itself: a shell without job control gives a
# background command /dev/null unless it has an explicit redirection.) The command's pid, and
# 1 when it leads a process group of its own, go to PREFIX.pid, so an interrupt can stop it;
# unless EXEMPT is 1, a command started after the interrupt flag file appeared stops itself
# (closing the race with on_signal, see there). Called only inside a job's background subshell
# (see capture), which has no traps, so `wait` returns only when the command has ended. The
# start time is capture's (c_start); the end time is asked for only when the status may mean
# a timeout. After a timeout or an interrupt, what is left of the command's group is ended.
tmo() {
    t_pre=$1
    t_budget=$2
    t_exempt=$3
    t_in=$4
    shift 4
    t_grp=0
    case $timeout_impl in
        coreutils)
            set -- timeout -k "$kill_grace" "$t_budget" "$@"
            t_grp=1
            ;;
        busybox)
            if [ "$timeout_busybox_t" = 1 ]; then
                set -- timeout -t "$t_budget" "$@"
            elif [ "$timeout_k" = 1 ]; then
                set -- timeout -k "$kill_grace" "$t_budget" "$@"
            else
                set -- timeout "$t_budget" "$@"
            fi
            ;;
        *)
            mono
            t_end=$((mo_cs + t_budget * 100))
            ;;
    esac
    if [ -n "$group_cmd" ]; then
        set -- "$group_cmd" "$@"
        t_grp=1
    fi
    # The command's CPU time (see window_close): this subshell's cutime + cstime before it
    # starts and once it has been waited for (the watchdog, if any, is reaped later).
    cpu_ticks /proc/self/stat
    t_cpu0=$ck_kids
    "$@" <"$t_in" &
    t_pid=$!
    echo "$t_pid $t_grp" >"$t_pre.pid"
    if [ "$t_exempt" = 0 ] && [ -f "$stop_flag" ]; then
        : >"$t_pre.killed"
        if [ "$t_grp" = 1 ]; then kill -TERM "-$t_pid" 2>/dev/null; else kill -TERM "$t_pid" 2>/dev/null; fi
    fi
    t_wd=
    if [ "$timeout_impl" = watchdog ]; then
        watchdog "$t_pid" "$t_grp" "$t_end" "$t_pre.timedout" </dev/null >/dev/null 2>&1 &
        t_wd=$!
    fi
    wait "$t_pid"
    t_rc=$?
    t_cpu=
    if cpu_ticks /proc/self/stat && [ -n "$t_cpu0" ]; then
        t_cpu=$((ck_kids - t_cpu0))
    fi
    if [ -n "$t_wd" ]; then
        kill "$t_wd" 2>/dev/null
    fi
    case $timeout_impl/$t_rc in
        coreutils/137 | busybox/137 | busybox/143)
            t_t0=${c_start%%.*}
            t_t1=`epoch_s`
            t_elapsed=$((t_t1 - ${t_t0:-0}))
            ;;
    esac
    case $timeout_impl in
        coreutils)
            # 124: timed out. 137: timed out and then KILLed after the grace period (or killed
            # by someone else, hence the elapsed-time check).
            if [ "$t_rc" = 124 ] || { [ "$t_rc" = 137 ] && [ "$t_elapsed" -ge "$t_budget" ]; }; then
                : >"$t_pre.timedout"
            fi
            ;;
        busybox)
            # BusyBox counts the budget in 1 s sleeps; allow one second of rounding.
            if { [ "$t_rc" = 143 ] || [ "$t_rc" = 137 ]; } &&
                [ "$t_elapsed" -ge $((t_budget - 1)) ]; then
                : >"$t_pre.timedout"
            fi
            ;;
    esac
    if [ -f "$t_pre.timedout" ] || [ -f "$t_pre.killed" ]; then
        group_end "$t_pid" "$t_grp"
    fi
    if [ -f "$t_pre.timedout" ]; then
        return 124
    fi
    return "$t_rc"
}

# capture PREFIX BUDGET OUTFILE INFILE MERGE EXEMPT CMD [ARG...]: the body of one background
# job. When the command has ended, PREFIX.done gets four lines: start time, exit status, end
# time, and the command's CPU time in clock ticks (empty when unknown; see tmo) (one small file
# per job instead of several: file creation is a good part of the cost of a job). stderr goes to PREFIX.err, or into OUTFILE when MERGE is 1.
capture() {
    c_pre=$1
    c_budget=$2
    c_out=$3
    c_in=$4
    c_merge=$5
    c_exempt=$6
    shift 6
    stamp
    c_start=$st_v
    t_cpu=
    if [ "$c_merge" = 1 ]; then
        tmo "$c_pre" "$c_budget" "$c_exempt" "$c_in" "$@" >"$c_out" 2>&1
    else
        tmo "$c_pre" "$c_budget" "$c_exempt" "$c_in" "$@" >"$c_out" 2>>"$c_pre.err"
    fi
    c_rc=$?
    stamp
    printf '%s\n%s\n%s\n%s\n' "$c_start" "$c_rc" "$st_v" "$t_cpu" >"$c_pre.done"
}

# read_done ID: jd_start, jd_rc, jd_end, jd_cpu of an ended job (empty if it left no .done).
read_done() {
    jd_start=
    jd_rc=
    jd_end=
    jd_cpu=
    {
        read -r jd_start
        read -r jd_rc
        read -r jd_end
        read -r jd_cpu
    } 2>/dev/null <"$state/$1.done"
}

# spawn ID BUDGET OUTFILE INFILE MERGE CMD [ARG...]: start a job in the background. Commands
# always run in the background and the main shell `wait`s for them, because a trapped signal
# interrupts `wait` at once but would be held until a foreground command ends. A job started
# while closing is 1 (the end-of-window snapshot) or spawn_exempt is 1 (tar) is exempt: an
# interrupt does not stop it. BUDGET is cut to the time left before the deadline (at least
# 1 s: callers check dl_over before starting a job); ID.dl then holds the budget used.
spawn() {
    sp_id=$1
    sp_budget=$2
    sp_out=$3
    sp_in=$4
    sp_merge=$5
    shift 5
    dl_left
    if [ "$dl_s" -lt "$sp_budget" ]; then
        [ "$dl_s" -ge 1 ] || dl_s=1
        sp_budget=$dl_s
        echo "$sp_budget" >"$state/$sp_id.dl"
    fi
    sp_exempt=0
    if [ "$closing" = 1 ] || [ "$spawn_exempt" = 1 ]; then
        sp_exempt=1
        : >"$state/$sp_id.exempt"
    else
        # Listed before it starts, so that on_signal cannot miss it.
        running="$running $sp_id"
    fi
    : >"$state/$sp_id.err"
    capture "$state/$sp_id" "$sp_budget" "$sp_out" "$sp_in" "$sp_merge" "$sp_exempt" "$@" \
        </dev/null >/dev/null 2>>"$state/$sp_id.err" &
    # The subshell's pid, for reap, in a variable per job (ids are a0001, a0002, ...).
    eval "wp_$sp_id=\$!"
}

# reap ID: wait until the job has ended (also across interrupted waits).
reap() {
    eval "rp_pid=\${wp_$1-}"
    if [ -n "$rp_pid" ]; then
        while :; do
            wait "$rp_pid"
            kill -0 "$rp_pid" 2>/dev/null || break
            # Woken by a signal while the job still runs: make sure it is being stopped.
            if [ "$interrupted" = 1 ]; then
                stop_job "$1"
            fi
        done
    fi
    rp_left=
    for rp_x in $running; do
        [ "$rp_x" = "$1" ] || rp_left="$rp_left $rp_x"
    done
    running=$rp_left
}

# aux OUTFILE INFILE CMD [ARG...]: run a helper command (discovery, probes) under the quick
# budget, without a manifest record; returns its status (1 without running once the deadline
# is reached).
aux() {
    ax_out=$1
    ax_in=$2
    shift 2
    dl_over && return 1
    next_id
    ax_id=$cur_id
    spawn "$ax_id" "$budget_quick" "$ax_out" "$ax_in" 0 "$@"
    reap "$ax_id"
    read_done "$ax_id"
    [ "$jd_rc" = 0 ]
}

# stop_job ID: TERM the job's command (its process group, else the timeout process or the
# command itself). The job's subshell then ends what is left and records the status as usual.
stop_job() {
    [ -f "$state/$1.exempt" ] && return 0
    kj_pid=
    kj_grp=
    read -r kj_pid kj_grp 2>/dev/null <"$state/$1.pid"
    if [ -n "$kj_pid" ]; then
        : >"$state/$1.killed"
        [ "$kj_grp" = 1 ] && kj_pid=-$kj_pid
        kill -TERM "$kj_pid" 2>/dev/null
    fi
}

# on_signal NAME: the INT/TERM/HUP trap. It only records the interrupt and stops the running
# commands; the main flow notices `interrupted` and goes on to write the tarball. A job being
# started at this very moment is covered either way: its id is in `running` before it starts,
# and the flag file is written before the pid files are read, so either we see its pid file or
# it sees the flag (tmo).
# shellcheck disable=SC2317 # reached through `trap`, which shellcheck cannot follow
on_signal() {
    : >"$stop_flag"
    if [ "$interrupted" = 0 ]; then
        interrupted=1
        case $1 in
            HUP) signal_status=129 ;;
            INT) signal_status=130 ;;
            *) signal_status=143 ;;
        esac
        say "caught SIG$1: stopping; the tarball will hold what was collected so far"
    fi
    for os_id in $running; do
        stop_job "$os_id"
    done
}

# shellcheck disable=SC2317 # reached through `trap`, which shellcheck cannot follow
cleanup() {
    if [ -n "$part" ] && [ -f "$part" ]; then
        rm -f "$part"
    fi
    if [ -n "$state" ] && [ -d "$state" ]; then
        rm -rf "$state"
    fi
    if [ -n "$tmp" ] && [ -d "$tmp" ]; then
        rm -rf "$tmp"
    fi
}

# ---------------------------------------------------------------------------------------------
# Artifacts and manifest records

# write_record ID PATH KIND EXIT TIMED_OUT START END BYTES TRUNCATED NOTE ARGV
# Records are appended to one file, each behind its id's number, and sorted into id (= plan)
# order at the end. A record that cannot be written (the state folder is full) is counted in
# rec_lost and named in meta incomplete.
write_record() {
    wr_id=$1
    shift
    clean "$1"
    wr_path=$cl_v
    clean "$2"
    wr_kind=$cl_v
    clean "$9"
    wr_note=$cl_v
    clean "${10}"
    wr_argv=$cl_v
    if printf '%s\tartifact\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${wr_id#a}" \
        "$wr_path" "$wr_kind" "$3" "$4" "$5" "$6" "$7" "$8" "$wr_note" "$wr_argv" \
        2>/dev/null >>"$state/records"; then
        rec_n=$((rec_n + 1))
    else
        rec_lost=$((rec_lost + 1))
    fi
}

next_id() {
    seq=$((seq + 1))
    # Zero-padded so that a glob lists the records in plan order.
    case $seq in
        ?) cur_id=a000$seq ;;
        ??) cur_id=a00$seq ;;
        ???) cur_id=a0$seq ;;
        *) cur_id=a$seq ;;
    esac
}

# skip PATH KIND NOTE ARGV: a planned artifact that was never started.
skip() {
    opts_reset
    next_id
    write_record "$cur_id" "$1" "$2" "" 0 "" "" 0 0 "$3" "$4"
    last_exit=
    last_note=$3
    trace "$1: $3"
}

# mkdir_for PATH: create the bundle folder of PATH once.
mkdir_for() {
    case $1 in
        */*)
            md_d=${1%/*}
            case $made_dirs in
                *" $md_d "*) ;;
                *)
                    mkdir -p "$top/$md_d"
                    made_dirs="$made_dirs$md_d "
                    ;;
            esac
            ;;
    esac
}

# prepare PATH KIND BUDGET CMD [ARG...]: decide whether the artifact can run. Records the
# artifact when it cannot (interrupted, deadline reached, total cap reached, no space left in
# the temp folder, command not found) and returns 1; otherwise sets cur_id, writes the job's
# info file and returns 0. Consumes the o_* options.
prepare() {
    pr_path=$1
    pr_kind=$2
    pr_budget=$3
    shift 3
    if [ -n "$o_disp" ]; then
        pr_argv=$o_disp
    else
        pr_argv=$*
        [ -n "$o_filter" ] && pr_argv="$pr_argv | $o_fdisp"
        [ "$o_mask" = 1 ] && pr_argv="$pr_argv | awk -f mask.awk"
    fi
    # Our own temp folders are noise in argv: `awk -f irq.awk`, `perf record -o perf.data`.
    while :; do
        case $pr_argv in
            *"$state/"*) pr_argv=${pr_argv%%"$state/"*}${pr_argv#*"$state/"} ;;
            *"$tmp/"*) pr_argv=${pr_argv%%"$tmp/"*}${pr_argv#*"$tmp/"} ;;
            *) break ;;
        esac
    done
    pr_need=${o_need:-$1}
    if [ "$interrupted" = 1 ] && [ "$closing" = 0 ]; then
        skip "$pr_path" "$pr_kind" "skipped: interrupted" "$pr_argv"
        return 1
    fi
    if dl_over; then
        dl_skipped=$((dl_skipped + 1))
        skip "$pr_path" "$pr_kind" "skipped: deadline reached (--deadline $deadline)" "$pr_argv"
        return 1
    fi
    if [ "$total_bytes" -ge "$max_bytes" ]; then
        skip "$pr_path" "$pr_kind" "skipped: total size cap reached ($max_bytes bytes)" "$pr_argv"
        return 1
    fi
    # Once a test write has failed, test again: space may have been freed meanwhile.
    if [ "$tmp_full" = 1 ] && ! space_ok; then
        wf_skipped=$((wf_skipped + 1))
        skip "$pr_path" "$pr_kind" "skipped: no space left in the temp folder $tmp" "$pr_argv"
        return 1
    fi
    if ! have_cmd "$pr_need"; then
        opts_reset
        next_id
        stamp
        pr_t=$st_v
        write_record "$cur_id" "$pr_path" "$pr_kind" 127 0 "$pr_t" "$pr_t" 0 0 \
            "not found: $pr_need" "$pr_argv"
        last_exit=127
        last_note="not found: $pr_need"
        trace "$pr_path: not found: $pr_need"
        return 1
    fi
    next_id
    pr_filter=$o_filter
    if [ "$o_mask" = 1 ]; then
        q "$state/mask.awk"
        pr_a=$q_out
        q "${o_msrc:-$pr_path}"
        pr_s=$q_out
        q "$state/redactions.tsv"
        pr_l=$q_out
        q "$state/$cur_id.mask"
        pr_filter="awk -f $pr_a -v src=$pr_s -v logf=$pr_l -v cnt=$q_out"
    fi
    clean "$pr_filter"
    pr_filter=$cl_v
    clean "$pr_argv"
    printf '%s\n' "$pr_path" "$pr_kind" "$pr_budget" "$cl_v" "$o_in" "$o_merge" \
        "$pr_filter" "$o_cap" "$o_capwhy" "$o_warn" "$o_fail" >"$state/$cur_id.info"
    mkdir_for "$pr_path"
    opts_reset
    return 0
}

# read_info ID: load the job's info file into in_* variables.
read_info() {
    {
        read -r in_path
        read -r in_kind
        read -r in_budget
        read -r in_argv
        read -r in_in
        read -r in_merge
        read -r in_filter
        read -r in_cap
        read -r in_capwhy
        read -r in_warn
        read -r in_fail
    } <"$state/$1.info"
}

# start ID CMD [ARG...]: spawn a prepared artifact, writing its output into the bundle.
# Returns 1 (and records the artifact as skipped) if an interrupt came in since prepare.
start() {
    st_id=$1
    shift
    read_info "$st_id"
    if [ "$interrupted" = 1 ] && [ "$closing" = 0 ]; then
        write_record "$st_id" "$in_path" "$in_kind" "" 0 "" "" 0 0 "skipped: interrupted" \
            "$in_argv"
        trace "$in_path: skipped: interrupted"
        return 1
    fi
    if [ -n "$in_filter" ]; then
        set -- sh -c "$pipe_prog" sh "$state/$st_id.rc1" "$in_filter" "$@"
    fi
    trace "$in_path ($in_kind): $in_argv"
    spawn "$st_id" "$in_budget" "$top/$in_path" "$in_in" "$in_merge" "$@"
}

# finish ID: after reap, turn the job's files into its manifest record; sets last_exit and
# last_note. Also tests whether the temp folder still has room (space_ok): an output that
# ended in a full filesystem, or whose command said a write failed, is noted `write failed`.
finish() {
    fin_pre=$state/$1
    read_info "$1"
    read_done "$1"
    fin_exit=$jd_rc
    fin_start=$jd_start
    fin_end=$jd_end
    fin_file=$top/$in_path
    fin_note=
    fin_timed=0
    fin_trunc=0
    fin_bytes=0
    fin_wf=
    # The budget used: the deadline may have cut it (see spawn).
    fin_budget=$in_budget
    fin_dl=0
    if [ -f "$fin_pre.dl" ]; then
        read -r fin_budget <"$fin_pre.dl"
        fin_dl=1
    fi
    if [ -s "$fin_file" ]; then
        wc -c <"$fin_file" >"$state/size"
        read -r fin_bytes <"$state/size"
    fi
    # The status of A in `A | B`; B's status is the job's own.
    if [ -f "$fin_pre.rc1" ]; then
        fin_rc1=
        read -r fin_rc1 2>/dev/null <"$fin_pre.rc1"
        if [ "$fin_exit" != 0 ] && [ "$fin_rc1" = 0 ]; then
            fin_note="output filter failed (exit $fin_exit)"
        elif [ -n "$fin_rc1" ]; then
            fin_exit=$fin_rc1
        fi
    fi
    # Caps are applied when the job has ended, in the order jobs are finished, so the total
    # never exceeds --max-bytes even when samplers ran side by side. The command's time budget
    # bounds how much it can write meanwhile; tools with huge outputs (perf script, thread
    # dumps) are cut while they write (o_cap).
    fin_limit=$max_artifact_bytes
    fin_why="per-artifact cap"
    if [ -n "$in_cap" ] && [ "$in_cap" -lt "$fin_limit" ]; then
        fin_limit=$in_cap
        fin_why=$in_capwhy
    fi
    if [ $((max_bytes - total_bytes)) -lt "$fin_limit" ]; then
        fin_limit=$((max_bytes - total_bytes))
        fin_why="total size cap"
    fi
    if [ "$fin_bytes" -gt "$fin_limit" ]; then
        if ! { head -c "$fin_limit" "$fin_file" >"$fin_file.cut" &&
            mv "$fin_file.cut" "$fin_file"; } 2>/dev/null; then
            # No room for the cut copy: cut the file in place (dd truncates at seek=).
            rm -f "$fin_file.cut"
            dd if=/dev/null of="$fin_file" bs=1 seek="$fin_limit" 2>/dev/null ||
                fin_wf="could not cut the output to its cap"
        fi
        wc -c <"$fin_file" >"$state/size"
        read -r fin_bytes <"$state/size"
        fin_trunc=1
    elif [ -n "$in_cap" ] && [ "$fin_bytes" -ge "$in_cap" ]; then
        fin_trunc=1
    fi
    total_bytes=$((total_bytes + fin_bytes))
    if [ -f "$fin_pre.timedout" ]; then
        fin_timed=1
        fin_exit=124
        fin_note="timed out after ${fin_budget}s"
        if [ "$fin_dl" = 1 ]; then
            fin_note="$fin_note, the time left before the deadline"
            dl_cut=$((dl_cut + 1))
        fi
        # What the command wrote until then is kept (a sampler's first intervals).
        if [ "$fin_bytes" -gt 0 ]; then
            fin_note="$fin_note; output cut there, the $fin_bytes bytes written before kept"
        fi
    elif [ -f "$fin_pre.killed" ]; then
        fin_note="interrupted"
    elif [ -z "$fin_exit" ]; then
        fin_note="no exit status recorded (job was killed)"
    fi
    # Why it failed: the first stderr line, or (tools such as jcmd report on stdout) the first
    # error-looking line of the output. A permission problem is named even when the tool exits
    # 0 (some only warn on stderr).
    fin_perm=
    fin_line=
    fin_src=
    if [ -s "$fin_pre.err" ]; then
        fin_src=$fin_pre.err
    elif [ -n "$fin_exit" ] && [ "$fin_exit" != 0 ] && [ "$fin_timed" = 0 ] &&
        [ "$in_merge" = 0 ] && [ -s "$fin_file" ]; then
        fin_src=$fin_file
    fi
    if [ -n "$fin_src" ]; then
        fin_iserr=0
        [ "$fin_src" = "$fin_pre.err" ] && fin_iserr=1
        awk -v err="$fin_iserr" '
            { l = tolower($0) }
            perm == "" && (l ~ /permission denied/ || l ~ /operation not permitted/) { perm = $0 }
            bad == "" && l ~ /exception|error|unable|denied|not permitted|cannot|failed/ { bad = $0 }
            first == "" && NF { first = $0 }
            err == 1 && wf == "" && l ~ /no space left on device|disk quota exceeded|file too large/ { wf = $0 }
            END { if (err == 1 || bad == "") bad = first; print perm; print bad; print wf }
        ' "$fin_src" >"$fin_pre.why" 2>/dev/null
        fin_wfl=
        { read -r fin_perm; read -r fin_line; read -r fin_wfl; } <"$fin_pre.why"
        [ -n "$fin_wfl" ] && fin_wf=$fin_wfl
    fi
    if [ -n "$fin_exit" ] && [ "$fin_exit" != 0 ] && [ "$fin_timed" = 0 ] &&
        [ ! -f "$fin_pre.killed" ]; then
        case $fin_exit in
            126) fin_what="not runnable" ;;
            *) fin_what="exit $fin_exit" ;;
        esac
        if [ "$fin_exit" = 141 ] && [ "$fin_trunc" = 1 ] && [ -n "$in_cap" ]; then
            # `A | head -c N`: A was stopped by SIGPIPE when the cap was reached.
            fin_what="exit 141 (SIGPIPE: stopped when the output reached the cap)"
        elif [ -n "$fin_line" ] && [ "$fin_line" != "$fin_perm" ] && [ "$fin_line" != "$fin_wf" ]; then
            # Do not repeat the line when the permission or write-failure note quotes it.
            fin_what="$fin_what: $fin_line"
        elif [ -z "$fin_line" ] && [ -n "$in_fail" ]; then
            fin_what="$fin_what: $in_fail"
        fi
        fin_note="${fin_note:+$fin_note; }$fin_what"
    fi
    if [ -n "$fin_perm" ]; then
        fin_note="permission denied: $fin_perm${fin_note:+; $fin_note}"
    fi
    if [ -n "$in_warn" ] && [ -s "$fin_file" ]; then
        fin_w=`grep -E -i -e "$in_warn" "$fin_file" | sed -n '1p'`
        [ -n "$fin_w" ] && fin_note="${fin_note:+$fin_note; }output: $fin_w"
    fi
    if [ "$fin_trunc" = 1 ]; then
        fin_note="${fin_note:+$fin_note; }truncated at $fin_limit bytes ($fin_why)"
    fi
    if [ -f "$fin_pre.mask" ]; then
        fin_mn=0
        fin_mk=
        { IFS="$tab" read -r fin_mn fin_mk; } <"$fin_pre.mask"
        if is_uint "$fin_mn" && [ "$fin_mn" -gt 0 ]; then
            masked_total=$((masked_total + fin_mn))
            fin_note="${fin_note:+$fin_note; }secrets masked: $fin_mn value(s) (keys: $fin_mk)"
        fi
    fi
    if ! space_ok && [ -z "$fin_wf" ]; then
        fin_wf="the temp folder's filesystem was full when the command ended, so the output may be cut"
    fi
    if [ -n "$fin_wf" ]; then
        wf_n=$((wf_n + 1))
        if [ -z "$wf_first" ]; then
            case $fin_wf in
                *[Qq]uota*) wf_first="disk quota exceeded while writing $in_path" ;;
                *[Tt]oo\ large*) wf_first="file too large while writing $in_path" ;;
                *) wf_first="no space left on device while writing $in_path" ;;
            esac
        fi
        fin_note="${fin_note:+$fin_note; }write failed: $fin_wf"
    fi
    write_record "$1" "$in_path" "$in_kind" "$fin_exit" "$fin_timed" "$fin_start" "$fin_end" \
        "$fin_bytes" "$fin_trunc" "$fin_note" "$in_argv"
    last_exit=$fin_exit
    last_note=$fin_note
    if [ -s "$fin_pre.err" ]; then
        printf '  %s: stderr (first lines):\n' "$in_path" 2>/dev/null >>"$log"
        sed -n '1,20s/^/    /p' "$fin_pre.err" 2>/dev/null >>"$log"
    fi
    if [ -n "$fin_note" ]; then
        trace "$in_path: $fin_note"
    fi
}

# run PATH KIND BUDGET CMD [ARG...]: one artifact, start to finish. Closes the sampling window
# first if its time is up. The outcome is in last_exit / last_note.
run() {
    window_tick
    ru_path=$1
    ru_kind=$2
    ru_budget=$3
    shift 3
    prepare "$ru_path" "$ru_kind" "$ru_budget" "$@" || return 0
    ru_id=$cur_id
    start "$ru_id" "$@" || return 0
    reap "$ru_id"
    finish "$ru_id"
}

# copy PATH KIND SRC [SRC...]: copy the first existing SRC (under $root) with cat.
copy() {
    # First: closing the window runs copies of its own, which reuse the cp_* variables.
    window_tick
    cp_path=$1
    cp_kind=$2
    shift 2
    cp_tried=
    for cp_src in "$@"; do
        if [ -e "$root$cp_src" ]; then
            run "$cp_path" "$cp_kind" "$budget_quick" cat "$root$cp_src"
            return 0
        fi
        cp_tried="$cp_tried $root$cp_src"
    done
    skip "$cp_path" "$cp_kind" "not found:$cp_tried" "cat $root$1"
}

# ---------------------------------------------------------------------------------------------
# Helper programs. awk does the per-line and per-file work of an artifact in one process
# (instead of a shell loop that forks per line); they are written once into the state folder
# and shown in argv by their file name.

write_helpers() {
    # mask.awk: copy the input, replacing secret values with m (****): the values of keys
    # that name a secret, in every syntax a configuration file or a command line writes them,
    # and values that are secrets by their shape (bearer tokens, JWTs, URL and JDBC
    # credentials, PEM private keys). Variables: src (name logged), logf (file that gets
    # "src<TAB>key" per masked value), cnt (file that gets "N<TAB>key,key,..." at the end).
    # It must write the same bytes under gawk, mawk and BusyBox awk (tests/collector/secrets.sh
    # runs it under the three): no interval expressions ({n}), character classes, \< \>,
    # gensub or IGNORECASE; a / inside a bracket expression only in a string regex (BusyBox
    # reads [^\/] as "neither \ nor /", gawk and mawk as "not /"); a ] in a bracket goes first.
    cat >"$state/mask.awk" <<'EOF'
# secret(k): 1 if the key name k names a secret. Case and camelCase do not matter: the key
# holds passw, passphrase, secret, token, credential, apikey, privatekey or accesskey once its
# separators are dropped, or its last word (words split at . _ - and lower-to-upper changes) is
# pw, pwd, pass or auth, or key after another word, or it is a credential header's name.
function secret(k) {
    if (!(k in known)) {
        # A bounded memo: a file of a million distinct keys must not grow it without end.
        if (++nknown > 10000) {
            split("", known)
            nknown = 1
        }
        known[k] = secret1(k)
    }
    return known[k]
}
function secret1(k,   w, n, i, ch, pv, l, c, last) {
    sub(/^-D/, "", k)
    sub(/^-+/, "", k)
    w = k
    if (k ~ /[a-z0-9][A-Z]/) {
        w = ""
        pv = ""
        n = length(k)
        for (i = 1; i <= n; i++) {
            ch = substr(k, i, 1)
            if (ch ~ /[A-Z]/ && pv ~ /[a-z0-9]/) w = w "."
            w = w ch
            pv = ch
        }
    }
    l = tolower(w)
    last = l
    sub(/.*[^a-z0-9]/, "", last)
    # A setting about a secret (where it is kept, how long it lives, which kind) is not one:
    # --tls-private-key-file, token.ttl, keyStoreType.
    if (l ~ /[^a-z0-9]/ && last ~ /^(file|path|dir|directory|location|ttl|timeout|type|mode|enabled|enable|disabled|required|algorithm|length|size|format|expiry|expiration|lifetime|interval|method|webhook|provider|class|factory|encoder|policy)$/)
        return 0
    c = l
    gsub(/[^a-z0-9]/, "", c)
    if (c ~ /passw|passphrase|secret|token|credential|apikey|privatekey|accesskey/) return 1
    if (l ~ /^(proxy-)?authorization$/ || l ~ /^(set-)?cookie$/) return 1
    # nginx's proxy_pass and its kin name an address; key alone names a field (<add
    # key="Theme">, {"key": "region"}).
    if (last ~ /^(pw|pwd|pass|auth|requirepass|masterauth)$/)
        return l !~ /(proxy|fastcgi|uwsgi|scgi|grpc|memcached)_pass$/
    return last == "key" && l ~ /[a-z0-9][^a-z0-9]+key$/
}
function hit(k) {
    nmask++
    if (!(k in seen)) { seen[k] = 1; keys = keys (keys == "" ? "" : ",") k }
    if (logf != "") printf "%s\t%s\n", src, k >> logf
}
# qend(s, q): where the quote q that closes a value is in s (s starts after the opening quote);
# 0 if it is not on this line. A backslash escapes the character after it.
function qend(s, q,   i, n, c) {
    if (index(s, "\\") == 0) return index(s, q)
    n = length(s)
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "\\") i++
        else if (c == q) return i
    }
    return 0
}
# val(s, k, re): s starts with the value of secret key k; returns s with the value replaced by
# m. A quoted value keeps its quotes (an unclosed one is masked to the end of the line); an
# unquoted one is the longest prefix matching re.
function val(s, k, re,   c, e) {
    c = substr(s, 1, 1)
    if (c == "\"" || c == "'") {
        e = qend(substr(s, 2), c)
        if (e == 0) { hit(k); return c m }
        if (e == 1 || substr(s, 2, e - 1) == m || plain(substr(s, 2, e - 1))) return s
        hit(k)
        return c m substr(s, e + 1)
    }
    if (substr(s, 1, length(m)) == m) return s
    if (match(s, re) && RLENGTH > 0 && !plain(substr(s, 1, RLENGTH))) {
        hit(k)
        return m substr(s, RLENGTH + 1)
    }
    return s
}
# plain(v): v is no secret whatever its key: true, false, or the path of a key, certificate or
# configuration file (--kubelet-client-key=/etc/kubernetes/pki/client.key).
function plain(v) {
    v = tolower(v)
    return v ~ /^(true|false)$/ || v ~ /^\/[^ \t]*\.(pem|key|crt|cer|der|jks|p12|pfx|keystore|truststore|keytab|pub|csr|conf|cfg|json|yaml|yml|properties|xml|txt)$/
}
# strong(v): v looks like a generated secret rather than a word: 16 characters or more with
# both letters and digits.
function strong(v) {
    return length(v) >= 16 && v ~ /[A-Za-z]/ && v ~ /[0-9]/
}
# JSON and quoted-key pairs anywhere: "key": "value", 'key': value.
function pairs(s,   out, k, q) {
    out = ""
    while (match(s, /["'][^"']*["'][ \t]*:[ \t]*/)) {
        k = substr(s, RSTART + 1, RLENGTH - 1)
        sub(/["'][ \t]*:[ \t]*$/, "", k)
        out = out substr(s, 1, RSTART + RLENGTH - 1)
        s = substr(s, RSTART + RLENGTH)
        if (secret(k)) s = val(s, k, "^[^],} \t]+")
    }
    return out s
}
# XML: <secret-tag>VALUE</, and attribute pairs naming a secret: <property name="x.password"
# value="VALUE"/>, <add key="ApiKey" value="VALUE"/>, <entry key="db.password">VALUE</entry>.
function xml(s,   out, seg, t, tag, k, p, rest) {
    out = ""
    while (match(s, /<[A-Za-z0-9_.:-]+>[^<]+<\//)) {
        seg = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        t = seg
        sub(/^</, "", t)
        sub(/>.*/, "", t)
        if (t != "name" && t != "value" && secret(t) && substr(seg, length(t) + 3, length(m)) != m) {
            hit(t)
            seg = "<" t ">" m "</"
        }
        out = out seg
    }
    s = out s
    out = ""
    while (match(s, /<[A-Za-z][^<>]*[ \t](name|key|NAME|KEY|Name|Key)[ \t]*=[ \t]*["'][^"']*["'][^<>]*>?/)) {
        tag = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        match(tag, /[ \t](name|key|NAME|KEY|Name|Key)[ \t]*=[ \t]*["'][^"']*["']/)
        k = substr(tag, RSTART, RLENGTH)
        sub(/^[^"']*["']/, "", k)
        sub(/["']$/, "", k)
        if (secret(k)) {
            if (match(tag, /[ \t](value|VALUE|Value)[ \t]*=[ \t]*/)) {
                p = RSTART + RLENGTH
                tag = substr(tag, 1, p - 1) val(substr(tag, p), k, "^[^ \t/>]+")
            }
            if (tag ~ "[^/]>$" && match(s, /^[^<]+/)) {
                rest = substr(s, RLENGTH + 1)
                if (substr(s, 1, RLENGTH) != m) { hit(k); s = m rest }
            }
        }
        out = out tag
    }
    return out s
}
# KEY=VALUE anywhere (also -Dk=v, k="v" attributes, Java's escaped k\=v) and "--flag VALUE".
function inline(s,   out, k, v) {
    out = ""
    while (match(s, /[A-Za-z0-9_.-]+[ \t]*\\?=[ \t]*/)) {
        k = substr(s, RSTART, RLENGTH)
        sub(/[ \t]*\\?=[ \t]*$/, "", k)
        out = out substr(s, 1, RSTART + RLENGTH - 1)
        s = substr(s, RSTART + RLENGTH)
        if (secret(k)) s = val(s, k, "^[^ \t&;,\"'<>)]+")
    }
    s = out s
    out = ""
    while (match(s, /(^|[ \t])--?[A-Za-z0-9_.-]+[ \t]+[^ \t-][^ \t]*/)) {
        v = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        match(v, /--?[A-Za-z0-9_.-]+/)
        k = substr(v, RSTART, RLENGTH)
        if (secret(k)) {
            match(v, /^[ \t]*--?[A-Za-z0-9_.-]+[ \t]+/)
            v = substr(v, 1, RLENGTH) val(substr(v, RLENGTH + 1), k, "^[^ \t]+")
        }
        out = out v
    }
    s = out s
    return s
}
# Credential headers: "Authorization: Basic ...", "Cookie: ...", "X-Api-Key: ..." anywhere,
# and nginx's proxy_set_header/add_header NAME VALUE. The value ends at the quote that opened
# the header (-H "Authorization: ...") or at the end of the line.
function headers(s,   out, p, q, h, v, e, hn) {
    if (tolower(s) !~ /authorization|cookie|api-key|auth-token|private-token/) return s
    hn = "((proxy-)?authorization|(set-)?cookie|x-api-key|x-auth-token|api-key|private-token)"
    out = ""
    while (match(tolower(s), "(^|[^a-z0-9_.-])" hn "[ \t]*:[ \t]*")) {
        p = RSTART
        if (substr(s, p, 1) ~ /[^A-Za-z0-9_.-]/) p++
        h = substr(s, p, RSTART + RLENGTH - p)
        q = (p > 1 ? substr(s, p - 1, 1) : "")
        out = out substr(s, 1, p - 1) h
        v = substr(s, RSTART + RLENGTH)
        e = (q == "\"" || q == "'") ? index(v, q) : 0
        if (e == 0) e = length(v) + 1
        if (e > 1 && substr(v, 1, e - 1) != m) {
            sub(/[ \t]*:.*/, "", h)
            hit(tolower(h))
            out = out m
        } else out = out substr(v, 1, e - 1)
        s = substr(v, e)
    }
    s = out s
    if (match(tolower(s), "(^|[ \t])(proxy_set_header|add_header|more_set_headers|more_set_input_headers)[ \t]+" hn "[ \t]+")) {
        p = RSTART + RLENGTH
        h = substr(s, RSTART, RLENGTH)
        sub(/[ \t]+$/, "", h)
        sub(/.*[ \t]/, "", h)
        s = substr(s, 1, p - 1) val(substr(s, p), tolower(h), "^[^;]+")
    }
    return s
}
# Secrets recognised by their shape, whatever their key: bearer tokens, JWTs, user:password@
# in URLs (also Java's escaped \: form), Oracle's user/password@, mysql's -pPASSWORD, curl -u
# user:password, and (hot: the line names a secret) the word after "password" (.netrc, mysqladmin
# password NEW) or a long generated-looking token after another secret-sounding word.
function shapes(s, hot,   out, v, p, k, w, l) {
    l = tolower(s)
    out = ""
    if (index(l, "bearer")) while (match(tolower(s), "bearer[ \t]+[a-z0-9._~+/=-]+")) {
        v = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        match(v, /[ \t]+/)
        if (length(v) - RSTART - RLENGTH + 1 >= 8) {
            hit("bearer")
            v = substr(v, 1, RSTART + RLENGTH - 1) m
        }
        out = out v
    }
    s = out s
    out = ""
    if (index(s, "eyJ")) while (match(s, /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/)) {
        out = out substr(s, 1, RSTART - 1)
        v = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        if (length(v) >= 20) { hit("jwt"); v = m }
        out = out v
    }
    s = out s
    out = ""
    if (index(s, "@")) while (match(s, "://[^/ \t:@]*:[^/ \t@]+@")) {
        v = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        p = index(substr(v, 4), ":") + 3
        if (substr(v, p + 1, length(v) - p - 1) != m) {
            hit("url-password")
            v = substr(v, 1, p) m "@"
        }
        out = out v
    }
    s = out s
    out = ""
    if (index(l, "jdbc:oracle")) while (match(tolower(s), "jdbc:oracle:[a-z0-9]+:[^/ \t@:]+/[^ \t@]+@")) {
        v = substr(s, RSTART, RLENGTH)
        out = out substr(s, 1, RSTART - 1)
        s = substr(s, RSTART + RLENGTH)
        p = index(v, "/")
        if (substr(v, p + 1, length(v) - p - 1) != m) {
            hit("jdbc-password")
            v = substr(v, 1, p) m "@"
        }
        out = out v
    }
    s = out s
    if (oracle) {
        out = ""
        while (match(s, "(^|[ \t])[A-Za-z0-9_$#]+/[^ \t@/]+")) {
            v = substr(s, RSTART, RLENGTH)
            out = out substr(s, 1, RSTART - 1)
            s = substr(s, RSTART + RLENGTH)
            p = index(v, "/")
            if (substr(v, p + 1) != m) { hit("oracle-password"); v = substr(v, 1, p) m }
            out = out v
        }
        s = out s
    }
    if (mysql && index(s, "-p")) {
        out = ""
        while (match(s, /(^|[ \t])-p[^ \t]+/)) {
            v = substr(s, RSTART, RLENGTH)
            out = out substr(s, 1, RSTART - 1)
            s = substr(s, RSTART + RLENGTH)
            if (substr(v, length(v) - length(m) + 1) != m) {
                hit("-p")
                sub(/-p.*/, "-p" m, v)
            }
            out = out v
        }
        s = out s
    }
    if (curl) {
        out = ""
        while (match(s, /(^|[ \t])(-u|--user|--proxy-user|-U)[ \t]+[^ \t:]*:[^ \t]+/)) {
            v = substr(s, RSTART, RLENGTH)
            out = out substr(s, 1, RSTART - 1)
            s = substr(s, RSTART + RLENGTH)
            match(v, /[ \t]+[^ \t:]*:/)
            p = RSTART + RLENGTH - 1
            if (substr(v, p + 1) != m) { hit("curl-user"); v = substr(v, 1, p) m }
            out = out v
        }
        s = out s
    }
    if (!hot) return s
    out = ""
    while (match(s, /(^|[ \t])[A-Za-z0-9_.-]+[ \t]+[^- \t][^ \t]*/)) {
        out = out substr(s, 1, RSTART - 1)
        v = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        match(v, /[A-Za-z0-9_.-]+[ \t]+/)
        p = RSTART + RLENGTH - 1
        k = substr(v, RSTART, RLENGTH)
        sub(/[ \t]+$/, "", k)
        w = substr(v, p + 1)
        out = out substr(v, 1, p)
        if (w != m && secret(k) && !plain(w) &&
            (strong(w) || tolower(k) ~ /^(password|passwd|passphrase)$/)) {
            hit(k)
            out = out m
        } else s = w s
    }
    return out s
}
# one(line): the masked line. Keeps the state of values that go on over several lines: PEM
# private keys, YAML block scalars, continued properties, argv given one argument per line.
function one(line,   l, k, head, rest, ind, c, hot) {
    if (inpem) {
        if (index(line, "-----END")) { inpem = 0; return line }
        return m
    }
    if (inblk) {
        if (line !~ /[^ \t]/) return line
        match(line, /^[ \t]*/)
        if (RLENGTH > blkind && (inblk == 1 || line !~ /^[ \t]*[^ \t:#][^ \t:]*:([ \t]|$)/))
            return substr(line, 1, RLENGTH) m
        inblk = 0
    }
    if (incont) {
        incont = (line ~ /(^|[^\\])(\\\\)*\\$/)
        match(line, /^[ \t]*/)
        return substr(line, 1, RLENGTH) m
    }
    if (match(line, /-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----/)) {
        hit("private-key")
        head = substr(line, 1, RSTART + RLENGTH - 1)
        rest = substr(line, RSTART + RLENGTH)
        c = index(rest, "-----END")
        if (c == 0) {
            inpem = 1
            return head (rest ~ /[^ \t]/ ? m : "")
        }
        line = head m substr(rest, c)
    }
    l = tolower(line)
    # Every secret key holds one of these words: lines without any (most of ps) only go
    # through the shapes.
    hot = l ~ /pass|pw|secret|token|credential|key|auth|cookie/
    # mysql, curl or an Oracle tool on this line (or, for argv one argument per line, earlier
    # in the file).
    if (l ~ /^[^ \t]*(mysql|mariadb)[a-z_-]*$/) myargv = 1
    if (l ~ /^[^ \t]*curl$/) curlargv = 1
    if (l ~ /^[^ \t]*(sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl)$/) oraargv = 1
    mysql = myargv || l ~ /(^|[ \t]|\/)(mysql|mariadb)[a-z_-]*([ \t]|$)/
    curl = curlargv || l ~ /(^|[ \t]|\/)curl([ \t]|$)/
    oracle = oraargv || l ~ /(^|[ \t]|\/)(sqlplus|rman|expdp|impdp|exp|imp|sqlldr|dgmgrl)([ \t]|$)/
    # One argument per line: the value after a secret --flag, or after curl's -u.
    if (nextarg != "") {
        k = nextarg
        nextarg = ""
        if (line != "" && line !~ /^-/ && line != m) {
            if (k != "curl-user") {
                hit(k)
                return m
            }
            c = index(line, ":")
            if (c > 0) {
                hit(k)
                return substr(line, 1, c) m
            }
        }
    }
    if (line ~ /^--?[A-Za-z0-9_.-]+$/ && secret(line)) nextarg = line
    if (curlargv && line ~ /^(-u|--user|--proxy-user|-U)$/) nextarg = "curl-user"
    # Outside a <property> block: <name>KEY</name>, then <value>VALUE</value> on the same or a
    # later line.
    if (!inprop) {
        c = index(line, "<name>")
        if (c > 0 && (k = index(substr(line, c + 6), "</name>")) > 0) {
            k = substr(line, c + 6, k - 1)
            gsub(/^[ \t]+|[ \t]+$/, "", k)
            if (secret(k)) pend = k
        }
        if (pend != "" && index(line, "<value>")) {
            xs = pend
            pend = ""
            line = values(line)
        } else if (xv) line = values(line)
        if (index(line, "</property>")) pend = ""
    }
    # KEY=VALUE, KEY: VALUE or KEY VALUE at the start of a line (properties, YAML, INI, shell,
    # Redis, argv). A YAML block scalar (| or >), a YAML plain scalar on the lines below, or a
    # value continued by a backslash masks the lines that carry it.
    if (hot && match(line, /^[ \t]*(- )?["']?([A-Za-z0-9_.$@-]|\/)+["']?([ \t]*[:=][ \t]*|[ \t]+)/)) {
        head = substr(line, 1, RLENGTH)
        rest = substr(line, RLENGTH + 1)
        k = head
        sub(/^[ \t]*(- )?["']?/, "", k)
        ind = length(head) - length(k)
        sub(/["']?[ \t]*[:=]?[ \t]*$/, "", k)
        if (secret(k) && head ~ /:[ \t]*$/ && rest !~ /[^ \t]/) {
            inblk = 2
            blkind = ind
        } else if (secret(k) && rest ~ /[^ \t]/ && substr(rest, 1, 1) != "#") {
            if (head ~ /:[ \t]*$/ && rest ~ /^(![^ \t]*[ \t]+)?[|>][-+0-9]*[ \t]*(#.*)?$/) {
                hit(k)
                inblk = 1
                blkind = ind
                return line
            }
            if (rest ~ /(^|[^\\])(\\\\)*\\$/) incont = 1
            return head val(rest, k, "^.*")
        }
    }
    if (hot) {
        line = headers(line)
        line = pairs(line)
        line = xml(line)
        line = inline(line)
    }
    return shapes(line, hot)
}
# values(l): the <value> contents of a property whose <name> (xs) is secret replaced by m; xv
# is 1 while inside a value that goes on over the next lines.
function values(l,   out, s, e) {
    out = ""
    while (1) {
        if (xv) {
            e = index(l, "</value>")
            if (e == 0) return out (l ~ /[^ \t]/ ? m : l)
            out = out (e > 1 ? m : "") "</value>"
            l = substr(l, e + 8)
            xv = 0
        }
        s = index(l, "<value>")
        if (s == 0) return out l
        out = out substr(l, 1, s + 6)
        l = substr(l, s + 7)
        e = index(l, "</value>")
        if (e == 1 || substr(l, 1, e - 1) == m) {
            out = out substr(l, 1, e + 7)
            l = substr(l, e + 8)
            continue
        }
        hit(xs)
        xv = 1
    }
}
# flush(): write the buffered <property> block, its values masked when its <name> is secret.
function flush(   i, s, k, e) {
    s = ""
    for (i = 1; i <= nbuf; i++) s = s buf[i] "\n"
    xs = ""
    while ((i = index(s, "<name>")) > 0) {
        s = substr(s, i + 6)
        e = index(s, "</name>")
        if (e == 0) break
        k = substr(s, 1, e - 1)
        gsub(/^[ \t\n]+|[ \t\n]+$/, "", k)
        if (secret(k)) {
            xs = k
            break
        }
    }
    inprop = 1
    for (i = 1; i <= nbuf; i++) {
        s = buf[i]
        if (xs != "") s = values(s)
        printf "%s%s", one(s), (bufeol[i] ? "\n" : "")
    }
    inprop = 0
    xv = 0
    nbuf = 0
}
# feed(piece, eol): one line, or one <property> block of a line that holds several. A block
# is read whole before it is written (up to 64 lines), so that a secret <name> after its
# <value> is seen too.
function feed(piece, eol) {
    if (nbuf == 0 && piece !~ /<property([ \t>]|$)/) {
        printf "%s%s", one(piece), (eol ? "\n" : "")
        return
    }
    nbuf++
    buf[nbuf] = piece
    bufeol[nbuf] = eol
    if (index(piece, "</property>") || piece ~ /<property[^>]*\/>/ || nbuf >= 64) flush()
}
BEGIN { m = "****" }
{
    s = $0
    while ((e = index(s, "</property>")) > 0 && substr(s, e + 11) ~ /<property/) {
        feed(substr(s, 1, e + 10), 0)
        s = substr(s, e + 11)
    }
    feed(s, 1)
}
END {
    if (nbuf > 0) flush()
    if (cnt != "") printf "%d\t%s\n", nmask, keys > cnt
}
EOF
    # irq.awk: arguments are /proc/irq/N/ACTION/ folders; prints N, smp_affinity_list, ACTION.
    cat >"$state/irq.awk" <<'EOF'
BEGIN {
    for (i = 1; i < ARGC; i++) {
        p = ARGV[i]
        sub(/\/+$/, "", p)
        name = p
        sub(/.*\//, "", name)
        d = p
        sub(/\/[^\/]*$/, "", d)
        n = d
        sub(/.*\//, "", n)
        f = d "/smp_affinity_list"
        a = ""
        if ((getline a < f) <= 0) a = "?"
        close(f)
        printf "%s\t%s\t%s\n", n, a, name
    }
    exit
}
EOF
    # threads.awk: arguments are /proc/PID/task/TID/comm files; prints count<TAB>name. A thread
    # that ended meanwhile is skipped (getline fails), not an error.
    cat >"$state/threads.awk" <<'EOF'
BEGIN {
    for (i = 1; i < ARGC; i++) {
        f = ARGV[i]
        if ((getline name < f) > 0) c[name]++
        close(f)
    }
    for (name in c) printf "%d\t%s\n", c[name], name
    exit
}
EOF
    # cgroup.awk: input /proc/mounts then /proc/PID/cgroup (root: prefix for reading). Prints
    # each membership line and every readable limit file from the process's cgroup up to the
    # root of its hierarchy (a limit set on a parent slice applies too); the files of `own`
    # (memory.stat, some 40 lines, hierarchical in v1's total_* lines) in the process's own
    # cgroup only.
    cat >"$state/cgroup.awk" <<'EOF'
function walk(m, p, files, own,   nf, f, d, dir, k, fn, l) {
    d = p
    while (1) {
        dir = (d == "/" ? m : m d)
        if (d == p) nf = split(files " " own, f, " ")
        else nf = split(files, f, " ")
        for (k = 1; k <= nf; k++) {
            fn = root dir "/" f[k]
            while ((getline l < fn) > 0) printf "limit\t%s\t%s\t%s\n", f[k], dir, l
            close(fn)
        }
        if (d == "/" || d == "") break
        sub(/\/[^\/]*$/, "", d)
        if (d == "") d = "/"
    }
}
FNR == 1 { part++ }
part == 1 {
    if ($3 == "cgroup2") v2 = $2
    else if ($3 == "cgroup") {
        n = split($4, o, ",")
        for (i = 1; i <= n; i++) if (!(o[i] in v1)) v1[o[i]] = $2
    }
    next
}
{
    print "cgroup\t" $0
    i = index($0, ":")
    rest = substr($0, i + 1)
    j = index(rest, ":")
    ctl = substr(rest, 1, j - 1)
    path = substr(rest, j + 1)
    if (ctl == "") {
        if (v2 != "") walk(v2, path, "memory.max memory.high memory.swap.max memory.current memory.events cpu.max cpu.weight cpu.stat", "memory.stat")
        next
    }
    n = split(ctl, c, ",")
    for (i = 1; i <= n; i++) {
        if (c[i] == "memory" && ("memory" in v1))
            walk(v1["memory"], path, "memory.limit_in_bytes memory.memsw.limit_in_bytes memory.usage_in_bytes memory.max_usage_in_bytes memory.failcnt memory.oom_control", "memory.stat")
        if (c[i] == "cpu" && ("cpu" in v1))
            walk(v1["cpu"], path, "cpu.cfs_quota_us cpu.cfs_period_us cpu.shares cpu.stat", "")
    }
}
EOF
    # cfgtype.awk: input the first MiB of a configuration file with its NUL bytes turned into
    # \001. Prints "holds a PEM private key" or "a binary file" (control characters other than
    # TAB, LF, VT, FF, CR and ESC), nothing for a text file.
    cat >"$state/cfgtype.awk" <<'EOF'
BEGIN { c = sprintf("[%c-%c%c-%c%c-%c%c]", 1, 8, 14, 26, 28, 31, 127) }
/-----BEGIN [A-Z0-9 ]*PRIVATE KEY/ { print "holds a PEM private key"; exit }
$0 ~ c { print "a binary file"; exit }
EOF
    printf '# source\tkey\n' >"$state/redactions.tsv"
}

# ---------------------------------------------------------------------------------------------
# Collection, one function per subsystem

collect_system() {
    run system/uname.txt uname "$budget_quick" uname -a
    copy system/os-release os-release /etc/os-release /usr/lib/os-release
}

# ---- targets and JVMs -----------------------------------------------------------------------

# proc_args PID: PID's argv, one per line, into $state/args.PID (returns 1 if unreadable).
proc_args() {
    [ -f "$state/args.$1" ] && return 0
    aux "$state/args.$1" "$root/proc/$1/cmdline" tr '\0' '\n'
}

# uid_name UID: set un to the user name of UID (empty if unknown).
uid_name() {
    un=
    while IFS=: read -r un_n _ un_u _; do
        if [ "$un_u" = "$1" ]; then
            un=$un_n
            return 0
        fi
    done 2>/dev/null </etc/passwd
    if have_cmd getent && aux "$state/getent.$1" /dev/null getent passwd "$1"; then
        IFS=: read -r un _ <"$state/getent.$1"
    fi
}

# jvm_setup PID: owner, JDK tools and how to run them as the owner; saved in $state/jvm.PID.
jvm_setup() {
    js_p=$1
    js_uid=
    js_gid=
    while read -r js_k _ js_e _; do
        case $js_k in
            Uid:) js_uid=$js_e ;;
            Gid:)
                js_gid=$js_e
                break
                ;;
        esac
    done 2>/dev/null <"$root/proc/$js_p/status"
    js_exe=
    if aux "$state/exe.$js_p" /dev/null readlink "$root/proc/$js_p/exe"; then
        read -r js_exe <"$state/exe.$js_p"
    fi
    js_exe=${js_exe% (deleted)}
    # The JVM's own JDK first (bin/ beside java, or ../../bin for a JDK 8 jre/bin/java).
    js_home=${js_exe%/*}
    js_home=${js_home%/bin}
    js_jdk=${js_home%/jre}
    for js_t in jcmd jstat jmap jstack; do
        js_v=
        if [ -n "$js_exe" ] && [ -x "$js_home/bin/$js_t" ]; then
            js_v=$js_home/bin/$js_t
        elif [ -n "$js_exe" ] && [ -x "$js_jdk/bin/$js_t" ]; then
            js_v=$js_jdk/bin/$js_t
        elif have_cmd "$js_t"; then
            js_v=$js_t
        fi
        case $js_t in
            jcmd) js_jcmd=$js_v ;;
            jstat) js_jstat=$js_v ;;
            jmap) js_jmap=$js_v ;;
            *) js_jstack=$js_v ;;
        esac
    done
    # HotSpot accepts an attach only from the JVM's own user (or root, with caveats); as root
    # we become the owner. setpriv takes the numeric ids (no name lookup, no PAM session).
    js_as=
    js_user=
    if [ "$uid" = 0 ] && [ -n "$js_uid" ] && [ "$js_uid" != 0 ]; then
        if have_cmd setpriv && aux /dev/null /dev/null setpriv --reuid="$js_uid" \
            --regid="${js_gid:-$js_uid}" --clear-groups -- true; then
            js_as=setpriv
        else
            uid_name "$js_uid"
            js_user=$un
            if [ -n "$js_user" ] && have_cmd runuser &&
                aux /dev/null /dev/null runuser -u "$js_user" -- true; then
                js_as=runuser
            elif [ -n "$js_user" ] && have_cmd su; then
                js_as=su
            fi
        fi
    fi
    printf '%s\n' "$js_uid" "$js_gid" "$js_user" "$js_as" "$js_exe" "$js_jcmd" "$js_jstat" \
        "$js_jmap" "$js_jstack" "" >"$state/jvm.$js_p"
}

# jvm_load PID: the jv_* variables of a JVM set up by jvm_setup.
jvm_load() {
    jv_p=$1
    jv_dir=jvm/$1
    {
        read -r jv_uid
        read -r jv_gid
        read -r jv_user
        read -r jv_as
        read -r jv_exe
        read -r jv_jcmd
        read -r jv_jstat
        read -r jv_jmap
        read -r jv_jstack
        read -r jv_attach
    } <"$state/jvm.$1"
}

jvm_save() {
    printf '%s\n' "$jv_uid" "$jv_gid" "$jv_user" "$jv_as" "$jv_exe" "$jv_jcmd" "$jv_jstat" \
        "$jv_jmap" "$jv_jstack" "$jv_attach" >"$state/jvm.$jv_p"
}

# jrun MODE PATH KIND BUDGET TOOL [ARG...]: run a JDK tool against the loaded JVM, as its
# owner when we are root (MODE run or sampler). TOOL is a path or a PATH name.
jrun() {
    jr_mode=$1
    jr_path=$2
    jr_kind=$3
    jr_budget=$4
    shift 4
    jr_tool=$1
    shift
    # shellcheck disable=SC2086 # jvm_tool_opts is a fixed list of words
    set -- "$jr_tool" $jvm_tool_opts "$@"
    case $jv_as in
        setpriv) set -- setpriv --reuid="$jv_uid" --regid="${jv_gid:-$jv_uid}" --clear-groups -- "$@" ;;
        runuser) set -- runuser -u "$jv_user" -- "$@" ;;
        su)
            jr_cmd=
            for jr_w in "$@"; do
                q "$jr_w"
                jr_cmd="$jr_cmd $q_out"
            done
            set -- su -s /bin/sh "$jv_user" -c "$jr_cmd"
            ;;
    esac
    o_need=$jr_tool
    if [ "$jr_mode" = sampler ]; then
        sampler_b "$jr_path" "$jr_kind" "$cw_jbudget" "$@"
    else
        run "$jr_path" "$jr_kind" "$jr_budget" "$@"
    fi
}

# jattach PATH KIND BUDGET TOOL [ARG...]: jrun for a tool that attaches, unless an earlier
# attach to this JVM failed; then the record says why instead.
jattach() {
    if [ -n "$jv_attach" ]; then
        window_tick
        skip "$1" "$2" "skipped: $jv_attach" "$4 $jv_p ..."
        return 0
    fi
    if [ -z "$4" ]; then
        window_tick
        skip "$1" "$2" "not found: jcmd (neither in the JVM's JDK ${jv_exe:-(exe unreadable)} nor in PATH)" "jcmd $jv_p"
        return 0
    fi
    jrun run "$@"
}

# target_dir PID: set td to the bundle folder of a target process.
target_dir() {
    if in_list "$1" "$jvms"; then td=jvm/$1; else td=proc/$1; fi
}

discover_targets() {
    # JVMs: /proc/PID/comm is `java` (a builtin read each, no fork per process) ...
    dt_cand=
    for dt_d in "$root"/proc/[0-9]*; do
        dt_c=
        read -r dt_c 2>/dev/null <"$dt_d/comm" || continue
        [ "$dt_c" = java ] && dt_cand="$dt_cand ${dt_d##*/}"
    done
    dt_jvms=
    for dt_p in $dt_cand; do
        proc_args "$dt_p" || continue
        dt_a0=
        read -r dt_a0 <"$state/args.$dt_p"
        case $dt_a0 in *java) dt_jvms="$dt_jvms $dt_p" ;; esac
    done
    # ... plus what jps lists (its own hsperfdata view; misses -XX:-UsePerfData JVMs).
    o_mask=1
    # shellcheck disable=SC2086 # jvm_tool_opts is a fixed list of words
    run jvm/jps-lv.txt jps "$budget_jvm" jps $jvm_tool_opts -lv
    if [ -s "$top/jvm/jps-lv.txt" ]; then
        while read -r dt_p dt_rest; do
            is_uint "$dt_p" || continue
            case $dt_rest in *sun.tools.jps.Jps* | Jps | Jps\ *) continue ;; esac
            [ -d "$root/proc/$dt_p" ] || continue
            in_list "$dt_p" "$dt_jvms" || dt_jvms="$dt_jvms $dt_p"
        done <"$top/jvm/jps-lv.txt"
    fi
    if [ -n "$opt_pids" ]; then
        targets=
        jvms=
        for dt_p in $opt_pids; do
            in_list "$dt_p" "$targets" && continue
            targets="$targets $dt_p"
            if in_list "$dt_p" "$dt_jvms"; then
                jvms="$jvms $dt_p"
            elif [ -r "$root/proc/$dt_p/maps" ] &&
                aux /dev/null /dev/null grep -q libjvm "$root/proc/$dt_p/maps"; then
                jvms="$jvms $dt_p"
            fi
        done
    else
        jvms=$dt_jvms
        targets=$dt_jvms
    fi
    targets=${targets# }
    jvms=${jvms# }
    say "targets: ${targets:-none}; JVMs: ${jvms:-none}"
    # Set up each JVM and test the attach once (VM.version): when it fails, the other
    # attaching tools are skipped with the same reason instead of failing one by one.
    for dt_p in $jvms; do
        proc_args "$dt_p"
        jvm_setup "$dt_p"
        jvm_load "$dt_p"
        jattach "$jv_dir/vm-version.txt" jcmd-vm-version "$budget_jvm" "$jv_jcmd" "$dt_p" VM.version
        if [ -n "$jv_jcmd" ] && [ "$last_exit" != 0 ]; then
            jv_attach="attach to JVM $dt_p (uid ${jv_uid:-?}) as uid $uid failed: see $jv_dir/vm-version.txt ($last_note)"
            jvm_save
        fi
    done
}

# jvm_thread_dump N: thread dump number N of every JVM, and its heap summary beside it (two
# summaries a window apart show how heap and metaspace moved).
jvm_thread_dump() {
    for tdp in $jvms; do
        jvm_load "$tdp"
        o_filter="head -c $max_thread_dump_bytes"
        o_fdisp=$o_filter
        o_cap=$max_thread_dump_bytes
        o_capwhy="thread dump cap"
        if [ -n "$jv_jcmd" ] || [ -z "$jv_jstack" ]; then
            jattach "$jv_dir/thread-dump.$1.txt" thread-dump "$budget_jvm" "$jv_jcmd" "$tdp" Thread.print
        else
            jattach "$jv_dir/thread-dump.$1.txt" thread-dump "$budget_jvm" "$jv_jstack" "$tdp"
        fi
        jattach "$jv_dir/gc-heap-info.$1.txt" gc-heap-info "$budget_jvm" "$jv_jcmd" "$tdp" GC.heap_info
        # JDK 8 has no GC.heap_info (jcmd: "Unknown diagnostic command"): its heap summary is
        # `jmap -heap`, which JDK 9 dropped. It attaches with the serviceability agent, which
        # holds the JVM stopped while it reads (about a second), so it runs once, after the
        # window.
        if [ "$1" = 2 ] && [ "$last_exit" != 0 ] && [ -n "$jv_jmap" ] &&
            aux /dev/null /dev/null grep -q 'Unknown diagnostic command' "$top/$jv_dir/gc-heap-info.$1.txt"; then
            jrun run "$jv_dir/jmap-heap.txt" jmap-heap "$budget_jvm" "$jv_jmap" -heap "$tdp"
        fi
    done
}

# ---- the sampling window --------------------------------------------------------------------

# sysstat_json_ok TOOL: 0 if TOOL supports `-o JSON`, else 1 with the reason in json_why.
# sysstat >= 11.5.1 does; for an unknown or older version a quick trial run decides. Also sets
# sysstat_version from the first tool that tells.
sysstat_json_ok() {
    sj_tool=$1
    json_why=
    if [ "$interrupted" = 1 ]; then
        json_why="skipped: interrupted"
        return 1
    fi
    if dl_over; then
        json_why="skipped: deadline reached (--deadline $deadline)"
        return 1
    fi
    if ! have_cmd "$sj_tool"; then
        json_why="not found: $sj_tool"
        return 1
    fi
    next_id
    sj_id=$cur_id
    spawn "$sj_id" "$budget_probe" "$state/$sj_id.out" /dev/null 0 "$sj_tool" -V
    reap "$sj_id"
    if [ -f "$state/$sj_id.timedout" ]; then
        json_why="skipped: '$sj_tool -V' timed out after ${budget_probe}s, JSON support unknown"
        return 1
    fi
    # Old releases print the version on stderr, newer ones on stdout.
    sj_sed='s/.*[Vv]ersion \([0-9][0-9]*\(\.[0-9][0-9]*\)*\).*/\1/p'
    sj_ver=`cat "$state/$sj_id.out" "$state/$sj_id.err" | sed -n "$sj_sed" | sed -n '1p'`
    if [ -n "$sj_ver" ]; then
        [ -n "$sysstat_version" ] || sysstat_version=$sj_ver
        sj_old_ifs=$IFS
        IFS=.
        # shellcheck disable=SC2086 # word splitting on '.' is the point: 12.6.1 -> 12 6 1
        set -- $sj_ver 0 0 0
        IFS=$sj_old_ifs
        decimal "$1"
        sj_major=$dc_n
        decimal "$2"
        sj_minor=$dc_n
        decimal "$3"
        if [ $((sj_major * 1000000 + sj_minor * 1000 + dc_n)) -ge 11005001 ]; then
            return 0
        fi
    fi
    if [ "$interrupted" = 1 ]; then
        json_why="skipped: interrupted"
        return 1
    fi
    # Version unknown or older: try it. Without an interval both tools print one report at once.
    next_id
    sj_id=$cur_id
    spawn "$sj_id" "$budget_probe" "$state/$sj_id.out" /dev/null 0 "$sj_tool" -o JSON
    reap "$sj_id"
    read_done "$sj_id"
    if [ "$jd_rc" = 0 ] && grep -q '"sysstat"' "$state/$sj_id.out"; then
        return 0
    fi
    json_why="skipped: $sj_tool ${sj_ver:-(version unknown)} does not support -o JSON"
    return 1
}

# sampler_b PATH KIND BUDGET CMD [ARG...]: start one sampler of the window in the background
# (or record why it cannot start); its id joins cw_jobs. sampler: the same with the window's
# budget.
sampler_b() {
    sa_path=$1
    sa_kind=$2
    sa_budget=$3
    shift 3
    if prepare "$sa_path" "$sa_kind" "$sa_budget" "$@" && start "$cur_id" "$@"; then
        cw_jobs="$cw_jobs $cur_id"
    fi
}

sampler() {
    sa_p=$1
    sa_k=$2
    shift 2
    sampler_b "$sa_p" "$sa_k" "$cw_budget" "$@"
}

# perf_plan: decide whether perf can record (perf_why empty) or why not.
perf_plan() {
    perf_secs=$duration
    [ "$perf_secs" -gt 30 ] && perf_secs=30
    read -r perf_paranoid 2>/dev/null <"$root/proc/sys/kernel/perf_event_paranoid"
    read -r kptr_restrict 2>/dev/null <"$root/proc/sys/kernel/kptr_restrict"
    perf_why=
    perf_state=run
    if [ "$no_perf" = 1 ]; then
        perf_state="off (--no-perf)"
        perf_why="skipped: --no-perf given"
    elif ! have_cmd perf; then
        perf_state="not found: perf"
    elif [ "$uid" != 0 ]; then
        case ${perf_paranoid:-x} in
            -* | 0) ;;
            *)
                perf_why="skipped: not root and kernel.perf_event_paranoid = ${perf_paranoid:-unreadable}; system-wide profiling (-a) needs root, CAP_PERFMON or a value <= 0 (the collector does not change it)"
                perf_state=$perf_why
                ;;
        esac
    fi
    [ "$perf_state" = run ] || return 0
    # perf.data goes to the temp folder: about 1 KiB per sample with call chains, 99 samples
    # per second per CPU. Skip rather than fill a small /tmp (a tmpfs eats memory).
    pp_cpus=
    if aux "$state/ncpu" /dev/null getconf _NPROCESSORS_ONLN; then
        read -r pp_cpus <"$state/ncpu"
    fi
    is_uint "$pp_cpus" || pp_cpus=1
    pp_need=$((pp_cpus * 99 * perf_secs * 2))
    if aux "$state/df" /dev/null df -Pk "$tmp"; then
        pp_avail=`awk 'NR == 2 { print $4 }' "$state/df"`
        if is_uint "$pp_avail" && [ "$pp_avail" -lt "$pp_need" ]; then
            perf_why="skipped: perf record needs about $((pp_need / 2)) KiB in $tmp (twice that free wanted, $pp_avail KiB free); set TMPDIR"
            perf_state=$perf_why
        fi
    fi
}

# snapshot SUFFIX: the counters read at the start and at the end of the window (cheap /proc
# copies first, so that they are close together).
snapshot() {
    copy "proc/softirqs.$1" softirqs /proc/softirqs
    copy "proc/interrupts.$1" interrupts /proc/interrupts
    copy "proc/stat.$1" proc-stat /proc/stat
    copy "proc/vmstat.$1" proc-vmstat /proc/vmstat
    # 0.1.0 wrote the start snapshot as proc/diskstats; that name is kept for readers of it.
    if [ "$1" = start ]; then
        copy proc/diskstats diskstats /proc/diskstats
    else
        copy "proc/diskstats.$1" diskstats /proc/diskstats
    fi
    copy "proc/net/dev.$1" net-dev /proc/net/dev
    copy "proc/net/snmp.$1" net-snmp /proc/net/snmp
    copy "proc/net/softnet_stat.$1" softnet-stat /proc/net/softnet_stat
    copy "proc/uptime.$1" proc-uptime /proc/uptime
    copy "proc/loadavg.$1" loadavg /proc/loadavg
    copy "proc/pressure/cpu.$1" pressure /proc/pressure/cpu
    copy "proc/pressure/memory.$1" pressure /proc/pressure/memory
    copy "proc/pressure/io.$1" pressure /proc/pressure/io
    # Each target's cgroup counters (OOM kills, throttled periods) beside the host's. The end
    # snapshot may be taken in the middle of a target's own collection: its $td is kept.
    sn_td=${td-}
    for sn_p in $targets; do
        [ -d "$root/proc/$sn_p" ] || continue
        target_dir "$sn_p"
        run "$td/cgroup.tsv.$1" cgroup "$budget_quick" awk -v root="$root" \
            -f "$state/cgroup.awk" "$root/proc/mounts" "$root/proc/$sn_p/cgroup"
    done
    td=$sn_td
    # After an interrupt the end snapshot keeps to the counters read since 0.1.0, so that the run
    # stops promptly; these read once are still read since boot.
    if [ "$1" = start ] || [ "$interrupted" = 0 ]; then
        copy "proc/sys/fs/file-nr.$1" file-nr /proc/sys/fs/file-nr
        for sn_f in "$root"/sys/devices/system/node/node*/numastat; do
            [ -f "$sn_f" ] || continue
            sn_n=${sn_f%/numastat}
            copy "sys/node/${sn_n##*/}/numastat.$1" node-numastat "${sn_f#"$root"}"
        done
        # Present only where the conntrack module is loaded; `conntrack -S` prints the same counters
        # over netlink, for kernels without the proc file.
        if [ -f "$root/proc/net/stat/nf_conntrack" ]; then
            copy "proc/net/stat/nf_conntrack.$1" nf-conntrack-stat /proc/net/stat/nf_conntrack
        elif have_cmd conntrack; then
            run "net/conntrack-S.$1" conntrack-s "$budget_quick" conntrack -S
        fi
    fi
    run "net/netstat-s.$1" netstat-s "$budget_quick" netstat -s
    run "net/nstat-asz.$1" nstat "$budget_quick" nstat -asz
    if have_cmd ss || ! have_cmd netstat; then
        run "net/ss-tanp.$1" ss "$budget_quick" ss -tanp
        # Once, at the end; not after an interrupt, which should stop the run promptly.
        if [ "$1" = end ] && [ "$interrupted" = 0 ]; then
            run "net/ss-s.$1" ss-s "$budget_quick" ss -s
            # Two lines per connection: the cap keeps the header and 2000 connections.
            o_filter="head -n 4001"
            o_fdisp=$o_filter
            run "net/ss-tin.$1" ss "$budget_quick" ss -tin state established
        fi
    else
        run "net/netstat-tanp.$1" netstat-tanp "$budget_quick" netstat -tanp
    fi
    # Last: a driver that hangs delays no other counter of the snapshot.
    if [ "$1" = start ] || [ "$interrupted" = 0 ]; then
        ethtool_stats "$1"
    fi
}

# ethtool_stats SUFFIX: `ethtool -S` of each interface with a device behind it (as
# collect_net chooses them). The drivers' per-queue drop counters mean something only as a
# growth over the window, hence a snapshot at each end. A NIC whose query times out (not cut by
# the deadline) is listed in eth_hung: it is asked nothing more, here or in collect_net.
ethtool_stats() {
    # The NIC is kept in $2: the window may close during a start snapshot's query (a hung
    # driver), and the end snapshot then taken reuses this function's variables, not its
    # positional parameters.
    for es_d in "$root"/sys/class/net/*; do
        [ -e "$es_d" ] || continue
        set -- "$1" "${es_d##*/}"
        if [ "$2" = lo ] || [ ! -e "$es_d/device" ]; then
            continue
        fi
        case " $eth_hung " in
            *" $2 "*)
                window_tick
                skip "net/ethtool/$2/ethtool-S.$1" ethtool-S \
                    "skipped: ethtool -S $2 timed out (the driver does not answer)" \
                    "ethtool -S $2"
                continue
                ;;
        esac
        run "net/ethtool/$2/ethtool-S.$1" ethtool-S "$budget_quick" ethtool -S "$2"
        case $last_exit/$last_note in
            124/*deadline*) ;;
            124/*) eth_hung="$eth_hung $2" ;;
        esac
    done
}

window_open() {
    cw_count=$((duration / interval))
    [ "$cw_count" -ge 1 ] || cw_count=1
    # The window plus a margin that grows with the load (see the header); jstat starts a JVM
    # first, perf record writes its data last.
    cw_budget=$((duration + (interval + 5 + duration / 10) * load_pct / 100))
    cw_jbudget=$((cw_budget + budget_jstart))

    cw_iostat_json=0
    cw_iostat_why=
    if sysstat_json_ok iostat; then cw_iostat_json=1; else cw_iostat_why=$json_why; fi
    cw_mpstat_json=0
    cw_mpstat_why=
    if sysstat_json_ok mpstat; then cw_mpstat_json=1; else cw_mpstat_why=$json_why; fi
    # procps-ng vmstat has -t (timestamps); older procps and others do not.
    cw_vmstat_t=0
    if have_cmd vmstat && aux /dev/null /dev/null vmstat -t 1 1; then cw_vmstat_t=1; fi
    perf_plan

    say "sampling window: ${duration}s, ${cw_count} x ${interval}s"
    cw_jobs=
    # The collector's own CPU over the window is counted from here (window_account).
    cw_cpu0=
    cpu_ticks "/proc/$$/stat" && cw_cpu0=$((ck_own + ck_kids))
    mono
    cw_t0=$mo_cs

    # See the header for why iostat, vmstat and jstat get COUNT+1 reports.
    sampler sysstat/iostat-x.txt iostat iostat -x -t "$interval" $((cw_count + 1))
    if [ "$cw_iostat_json" = 1 ] || ! have_cmd iostat; then
        sampler sysstat/iostat-x.json iostat iostat -o JSON -x "$interval" $((cw_count + 1))
    else
        skip sysstat/iostat-x.json iostat "$cw_iostat_why" \
            "iostat -o JSON -x $interval $((cw_count + 1))"
    fi
    sampler sysstat/mpstat-P-ALL.txt mpstat mpstat -P ALL "$interval" "$cw_count"
    if [ "$cw_mpstat_json" = 1 ] || ! have_cmd mpstat; then
        sampler sysstat/mpstat-P-ALL.json mpstat mpstat -o JSON -P ALL "$interval" "$cw_count"
    else
        skip sysstat/mpstat-P-ALL.json mpstat "$cw_mpstat_why" \
            "mpstat -o JSON -P ALL $interval $cw_count"
    fi
    if [ "$cw_vmstat_t" = 1 ]; then
        sampler sysstat/vmstat.txt vmstat vmstat -t "$interval" $((cw_count + 1))
    else
        sampler sysstat/vmstat.txt vmstat vmstat "$interval" $((cw_count + 1))
    fi
    sampler sysstat/pidstat-udw.txt pidstat pidstat -u -d -w "$interval" "$cw_count"
    if [ -n "$targets" ]; then
        cw_plist=
        for cw_p in $targets; do cw_plist="${cw_plist:+$cw_plist,}$cw_p"; done
        sampler sysstat/pidstat-t.txt pidstat pidstat -t -p "$cw_plist" "$interval" "$cw_count"
    else
        skip sysstat/pidstat-t.txt pidstat "skipped: no target process (no JVM found, no --pid given)" \
            "pidstat -t -p PIDS $interval $cw_count"
    fi
    sampler sysstat/sar-n-DEV.txt sar sar -n DEV "$interval" "$cw_count"
    sampler sysstat/sar-n-EDEV.txt sar sar -n EDEV "$interval" "$cw_count"
    sampler sysstat/sar-q.txt sar sar -q "$interval" "$cw_count"
    for cw_p in $jvms; do
        jvm_load "$cw_p"
        if [ -z "$jv_jstat" ]; then
            skip "$jv_dir/jstat-gcutil.txt" jstat-gcutil \
                "not found: jstat (neither in the JVM's JDK ${jv_exe:-(exe unreadable)} nor in PATH)" \
                "jstat -gcutil -t $cw_p"
        else
            jrun sampler "$jv_dir/jstat-gcutil.txt" jstat-gcutil - "$jv_jstat" -gcutil -t "$cw_p" \
                "$((interval * 1000))" $((cw_count + 1))
        fi
    done
    cw_perf="perf record -F 99 -a -g -N -o perf.data -- sleep $perf_secs"
    perf_rec_id=
    if [ -n "$perf_why" ]; then
        skip perf/perf-record.log perf-record "$perf_why" "$cw_perf"
    else
        o_merge=1
        sampler_b perf/perf-record.log perf-record $((cw_budget - duration + perf_secs + budget_perfw)) \
            perf record -F 99 -a -g -N -o "$tmp/perf.data" -- sleep "$perf_secs"
        case " $cw_jobs " in *" $cur_id "*) perf_rec_id=$cur_id ;; esac
    fi
    # The pacer holds the window open for `duration` even if no sampler could start.
    win_pacer=
    if [ "$interrupted" = 0 ] && ! dl_over; then
        next_id
        win_pacer=$cur_id
        spawn "$win_pacer" "$cw_budget" /dev/null /dev/null 0 sleep "$duration"
    fi
    win=open

    snapshot start
    jvm_thread_dump 1
}

# window_tick: close the window if its time is up (called before each artifact). The job
# options a caller has set for its next artifact are kept aside meanwhile.
window_tick() {
    [ "$win" = open ] || return 0
    if [ -n "$win_pacer" ] && [ ! -f "$state/$win_pacer.done" ]; then
        return 0
    fi
    wt_in=$o_in
    wt_merge=$o_merge
    wt_filter=$o_filter
    wt_fdisp=$o_fdisp
    wt_cap=$o_cap
    wt_capwhy=$o_capwhy
    wt_disp=$o_disp
    wt_need=$o_need
    wt_mask=$o_mask
    wt_msrc=$o_msrc
    wt_warn=$o_warn
    wt_fail=$o_fail
    opts_reset
    window_close
    o_in=$wt_in
    o_merge=$wt_merge
    o_filter=$wt_filter
    o_fdisp=$wt_fdisp
    o_cap=$wt_cap
    o_capwhy=$wt_capwhy
    o_disp=$wt_disp
    o_need=$wt_need
    o_mask=$wt_mask
    o_msrc=$wt_msrc
    o_warn=$wt_warn
    o_fail=$wt_fail
}

# window_close: wait for the window's end, take the end snapshots (also after an interrupt),
# record the samplers.
window_close() {
    [ "$win" = open ] || return 0
    win=closing
    [ -n "$win_pacer" ] && reap "$win_pacer"
    # The end snapshots first, right when the window's time is up; samplers that need a moment
    # more to finish (perf writing its data, jstat's JVM) do not delay them.
    closing=1
    snapshot end
    closing=0
    for wc_id in $cw_jobs; do
        reap "$wc_id"
    done
    perf_rc=
    perf_note=
    wc_samp=0
    wc_perf=
    for wc_id in $cw_jobs; do
        finish "$wc_id"
        read_done "$wc_id"
        if [ "$wc_id" = "$perf_rec_id" ]; then
            perf_rc=$last_exit
            perf_note=$last_note
            is_uint "$jd_cpu" && wc_perf=$jd_cpu
        elif is_uint "$jd_cpu"; then
            wc_samp=$((wc_samp + jd_cpu))
        fi
    done
    window_account
    win=closed
    trace "sampling window closed"
}

# window_account: the collector's own CPU time over the window, for the manifest: this
# shell's ticks (its own and its waited-for children's: every job has been reaped by now) since
# window_open, less the samplers' (wc_samp) and perf record's (wc_perf) commands, which each
# job measured for itself (tmo). Everything else the shell waited for meanwhile is the
# collector's: job subshells, timeout, watchdogs, wc, awk, the pacer, the snapshots, host facts
# and first thread dumps. Ticks become 1/100 s by CLK_TCK (100 where getconf cannot say).
window_account() {
    [ -n "$cw_cpu0" ] || return 0
    cpu_ticks "/proc/$$/stat" || return 0
    wa_ticks=$((ck_own + ck_kids - cw_cpu0 - wc_samp - ${wc_perf:-0}))
    mono
    wa_win=$((mo_cs - cw_t0))
    # After the window's end, so its fork is not counted.
    wa_tck=`getconf CLK_TCK 2>/dev/null`
    is_uint "$wa_tck" && [ "$wa_tck" -gt 0 ] || wa_tck=100
    # A job that took more than its subshell saw (cannot happen) must not make it negative.
    [ "$wa_ticks" -ge 0 ] || wa_ticks=0
    [ "$wa_win" -ge 1 ] || wa_win=1
    wa_cs=$((wa_ticks * 100 / wa_tck))
    cents "$wa_win"
    cpu_window=$cn_v
    cents "$wa_cs"
    collector_cpu_s=$cn_v
    # % of one CPU to 1/100: seconds / window x 100, from the rounded seconds as written.
    cents $((wa_cs * 10000 / wa_win))
    collector_cpu_pct=$cn_v
    cents $((wc_samp * 100 / wa_tck))
    samplers_cpu_s=$cn_v
    perf_cpu_s=
    if [ -n "$wc_perf" ]; then
        cents $((wc_perf * 100 / wa_tck))
        perf_cpu_s=$cn_v
    fi
    say "collector's own CPU over the ${cpu_window}s window: ${collector_cpu_s}s (${collector_cpu_pct} % of one CPU); samplers ${samplers_cpu_s}s${perf_cpu_s:+, perf record ${perf_cpu_s}s}"
}

# ---- host facts (taken while the window runs) -----------------------------------------------

collect_kernel() {
    copy kernel/cmdline cmdline /proc/cmdline
    # /proc/modules beside lsmod: only the former shows taint flags and load addresses.
    copy proc/modules proc-modules /proc/modules
    run kernel/lsmod.txt lsmod "$budget_quick" lsmod
    copy kernel/tainted tainted /proc/sys/kernel/tainted
    # A taint marker ends the line: "mod 16384 2 - Live 0xffffffffc0a00000 (OE)".
    ck_mods=
    ck_why="skipped: no module in /proc/modules carries a taint flag"
    # shellcheck disable=SC2016 # an awk program, not shell
    if [ ! -r "$root/proc/modules" ]; then
        ck_why="skipped: $root/proc/modules is not readable"
    elif aux "$state/tainted-modules" "$root/proc/modules" awk '$NF ~ /^\([A-Z]+\)$/ { print $1 }'; then
        while read -r ck_m; do ck_mods="$ck_mods $ck_m"; done <"$state/tainted-modules"
    fi
    if [ -n "$ck_mods" ]; then
        # shellcheck disable=SC2086 # one word per module name
        run kernel/modinfo-tainted.txt modinfo "$budget_quick" modinfo $ck_mods
    else
        window_tick
        skip kernel/modinfo-tainted.txt modinfo "$ck_why" "modinfo MODULES"
    fi
    o_filter="tail -n 2000"
    o_fdisp=$o_filter
    run kernel/dmesg.txt dmesg "$budget_quick" dmesg
    run kernel/sysctl-a.txt sysctl "$budget_quick" sysctl -a
}

collect_cpu() {
    run cpu/lscpu.txt lscpu "$budget_quick" lscpu
    run cpu/numactl-H.txt numactl "$budget_quick" numactl -H
    run cpu/cpuinfo-head.txt cpuinfo "$budget_quick" head -n 64 "$root/proc/cpuinfo"
    # cpufreq: governor, driver and clocks of the first 16 CPUs that have a cpufreq folder
    # (enough to show whether policies differ; most virtual machines have none).
    cc_n=0
    for cc_d in "$root"/sys/devices/system/cpu/cpu[0-9]*/cpufreq; do
        [ -d "$cc_d" ] || continue
        [ "$cc_n" -lt 16 ] || break
        cc_n=$((cc_n + 1))
        cc_cpu=${cc_d%/cpufreq}
        cc_cpu=${cc_cpu##*/}
        for cc_a in scaling_governor scaling_driver scaling_cur_freq scaling_max_freq cpuinfo_max_freq; do
            if [ -r "$cc_d/$cc_a" ]; then
                run "cpu/cpufreq/$cc_cpu/$cc_a" cpufreq "$budget_quick" cat "$cc_d/$cc_a"
            fi
        done
    done
    if [ "$cc_n" = 0 ]; then
        skip cpu/cpufreq/cpu0/scaling_governor cpufreq \
            "not found: $root/sys/devices/system/cpu/cpu0/cpufreq (no cpufreq driver)" \
            "cat $root/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
    fi
    run cpu/cpupower-frequency-info.txt cpupower-frequency-info "$budget_quick" cpupower frequency-info
    run cpu/tuned-adm-active.txt tuned-adm "$budget_quick" tuned-adm active
    run system/detect-virt.txt detect-virt "$budget_quick" systemd-detect-virt
    # Services systemd gave up on or keeps restarting. `--state` selects them in one call (with
    # unit names given, systemctl would show those whatever their state); their `Process:` and
    # `CGroup:` lines show command lines, masked as ps's are.
    o_mask=1
    run system/systemctl-status.txt systemctl-status "$budget_quick" \
        systemctl status --no-pager --full --lines=20 --state=failed,activating --type=service
    run system/dmidecode-t-system.txt dmidecode "$budget_quick" dmidecode -t system
    run system/lspci-k.txt lspci "$budget_quick" lspci -k
}

collect_mem() {
    copy mem/meminfo meminfo /proc/meminfo
    run mem/free-m.txt free "$budget_quick" free -m
    copy mem/swaps swaps /proc/swaps
    run mem/swapon-show.txt swapon "$budget_quick" swapon --show
    cm_thp=
    for cm_d in /sys/kernel/mm/transparent_hugepage /sys/kernel/mm/redhat_transparent_hugepage; do
        if [ -d "$root$cm_d" ]; then
            cm_thp=$root$cm_d
            break
        fi
    done
    if [ -n "$cm_thp" ]; then
        run mem/thp.txt thp "$budget_quick" grep -H . "$cm_thp/enabled" "$cm_thp/defrag"
    else
        window_tick
        skip mem/thp.txt thp "not found: $root/sys/kernel/mm/transparent_hugepage" \
            "grep -H . enabled defrag"
    fi
    run mem/vmware-balloon.txt balloon "$budget_quick" vmware-toolbox-cmd stat balloon
}

# df and lsblk ask the kernel only (statfs, sysfs); df can still block on a dead network mount,
# which its budget bounds.
collect_storage() {
    run fs/df-P.txt df "$budget_quick" df -P
    run fs/df-iP.txt df "$budget_quick" df -iP
    copy proc/mounts mounts /proc/mounts
    cs_cols=NAME,KNAME,MAJ:MIN,TYPE,SIZE,ROTA,SCHED,MOUNTPOINT
    run block/lsblk-J-b.json lsblk "$budget_quick" lsblk -J -b -o "$cs_cols"
    if [ "$last_exit" != 0 ] && [ "$last_exit" != 127 ] && [ "$interrupted" = 0 ]; then
        # util-linux before 2.27 (RHEL 6, 7.0-7.2) has no -J: the same columns as a table.
        run block/lsblk.txt lsblk "$budget_quick" lsblk -b -o "$cs_cols"
    fi
    cs_b=$root/sys/block
    if [ -d "$cs_b" ]; then
        # One grep for every file; an empty file (zram's scheduler) prints no line.
        run block/sys-block-queue.txt sys-block-queue "$budget_quick" grep -H . \
            "$cs_b"/*/queue/rotational "$cs_b"/*/queue/scheduler "$cs_b"/*/queue/nr_requests
        # -R so that a single folder still gets its `FOLDER:` line; the entries are links, which
        # ls -R does not enter.
        run block/sys-block-slaves.txt sys-block-slaves "$budget_quick" ls -1R "$cs_b"/*/slaves
    else
        window_tick
        skip block/sys-block-queue.txt sys-block-queue "not found: $cs_b" "grep -H . QUEUE FILES"
        skip block/sys-block-slaves.txt sys-block-slaves "not found: $cs_b" "ls -1R SLAVES"
    fi
    run block/dmsetup-ls-tree.txt dmsetup-tree "$budget_quick" dmsetup ls --tree
}

collect_net() {
    run net/ip-s-link.txt ip-link "$budget_quick" ip -s link
    run net/ip-addr.txt ip-addr "$budget_quick" ip addr
    # ethtool for interfaces with a device behind them (physical, virtio, vmxnet3, e1000);
    # lo, bridges, bonds, veth, tun have none and would only add noise.
    cn_virtual=
    for cn_d in "$root"/sys/class/net/*; do
        [ -e "$cn_d" ] || continue
        cn_n=${cn_d##*/}
        if [ "$cn_n" = lo ] || [ ! -e "$cn_d/device" ]; then
            cn_virtual="$cn_virtual $cn_n"
            continue
        fi
        # A driver that hangs one query hangs the others: after a timeout, the NIC's other
        # queries are skipped rather than each spending its budget.
        cn_hung=
        case " $eth_hung " in *" $cn_n "*) cn_hung="ethtool -S $cn_n" ;; esac
        for cn_o in i l k g c; do
            if [ -n "$cn_hung" ]; then
                window_tick
                skip "net/ethtool/$cn_n/ethtool-$cn_o.txt" "ethtool-$cn_o" \
                    "skipped: $cn_hung timed out (the driver does not answer)" "ethtool -$cn_o $cn_n"
                continue
            fi
            run "net/ethtool/$cn_n/ethtool-$cn_o.txt" "ethtool-$cn_o" "$budget_quick" \
                ethtool "-$cn_o" "$cn_n"
            # (Not when the deadline had cut its budget: the later queries are skipped anyway.)
            case $last_exit/$last_note in
                124/*deadline*) ;;
                124/*) cn_hung="ethtool -$cn_o $cn_n" ;;
            esac
        done
    done
    [ -n "$cn_virtual" ] && trace "no ethtool for interfaces without a device:$cn_virtual"
    for cn_f in "$root"/proc/net/bonding/*; do
        [ -f "$cn_f" ] || continue
        run "net/bonding/${cn_f##*/}" bonding "$budget_quick" cat "$cn_f"
    done
    # Trailing slash: only the folders, i.e. the action names of each IRQ.
    set -- "$root"/proc/irq/*/*/
    if [ -d "$1" ]; then
        o_disp="awk -f irq.awk $root/proc/irq/*/*/"
        run net/irq-affinity.tsv irq-affinity "$budget_quick" awk -f "$state/irq.awk" "$@"
    else
        window_tick
        skip net/irq-affinity.tsv irq-affinity "not found: $root/proc/irq/*/ACTION/" \
            "awk -f irq.awk $root/proc/irq/*/*/"
    fi
    if have_cmd ss || ! have_cmd netstat; then
        run net/ss-tulpn.txt ss "$budget_quick" ss -tulpn
    else
        run net/netstat-tulpn.txt netstat-tanp "$budget_quick" netstat -tulpn
    fi
}

collect_time() {
    run time/chronyc-tracking.txt chronyc-tracking "$budget_quick" chronyc -n tracking
    run time/chronyc-sources.txt chronyc-sources "$budget_quick" chronyc -n sources -v
    run time/ntpq-pn.txt ntpq "$budget_quick" ntpq -pn
    run time/timedatectl.txt timedatectl "$budget_quick" timedatectl
    run time/vmware-timesync.txt vmware-timesync "$budget_quick" vmware-toolbox-cmd timesync status
}

collect_processes() {
    o_mask=1
    run system/ps.txt ps "$budget_quick" \
        ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etimes,stat,comm,args
    if [ "$last_exit" != 0 ] && [ "$last_exit" != 127 ] && [ "$interrupted" = 0 ]; then
        # BusyBox ps lists every process without -e but knows few columns; procps before
        # 3.3 (CentOS 6) has no etimes.
        aux "$state/ps-help" /dev/null sh -c 'ps --help 2>&1'
        o_mask=1
        if grep -q BusyBox "$state/ps-help" 2>/dev/null; then
            run system/ps-o.txt ps "$budget_quick" ps -o pid,ppid,user,vsz,rss,stat,comm,args
        else
            run system/ps-o.txt ps "$budget_quick" \
                ps -eo pid,ppid,user,nlwp,pcpu,pmem,rss,vsz,etime,stat,comm,args
        fi
    fi
    # BusyBox top prints whole command lines.
    o_mask=1
    run system/top.txt top "$budget_quick" top -b -n 1
    # ulimit is a shell builtin; bash's listing is the one people compare ("pending signals").
    if have_cmd bash; then
        run system/ulimit-a.txt ulimit "$budget_quick" bash -c 'ulimit -a'
    else
        run system/ulimit-a.txt ulimit "$budget_quick" sh -c 'ulimit -a'
    fi
}

# ---- per target process ---------------------------------------------------------------------

collect_targets() {
    for ct_p in $targets; do
        target_dir "$ct_p"
        if [ ! -d "$root/proc/$ct_p" ]; then
            window_tick
            skip "$td/status" proc-status "not found: no process $ct_p" "cat $root/proc/$ct_p/status"
            continue
        fi
        copy "$td/status" proc-status "/proc/$ct_p/status"
        copy "$td/limits" proc-limits "/proc/$ct_p/limits"
        # A folder that cannot be listed (another user's process, without root) gives no count
        # rather than a count of 0.
        # shellcheck disable=SC2016 # the child shell expands $1
        run "$td/fd-count" fd-count "$budget_quick" \
            sh -c 'l=`ls -A -- "$1"` || exit 1; printf "%s" "$l" | awk "END { print NR }"' \
            sh "$root/proc/$ct_p/fd"
        o_in=$root/proc/$ct_p/cmdline
        o_mask=1
        o_disp="tr '\\0' '\\n' <$root/proc/$ct_p/cmdline | awk -f mask.awk"
        run "$td/cmdline.txt" proc-cmdline "$budget_quick" tr '\0' '\n'
        if in_list "$ct_p" "$jvms"; then
            collect_jvm "$ct_p"
        fi
    done
}

collect_jvm() {
    jvm_load "$1"
    if [ -x "$root/proc/$1/exe" ]; then
        o_merge=1
        run "$jv_dir/java-version.txt" java-version "$budget_quick" "$root/proc/$1/exe" -version
    else
        window_tick
        skip "$jv_dir/java-version.txt" java-version \
            "skipped: permission denied: $root/proc/$1/exe (process of uid ${jv_uid:-?}; collector uid $uid)" \
            "$root/proc/$1/exe -version"
    fi
    jvm_unit "$1"
    if [ -n "$ju_unit" ]; then
        o_mask=1
        run "$jv_dir/systemctl-status.txt" systemctl-status "$budget_quick" \
            systemctl status --no-pager --full --lines=20 -- "$ju_unit"
    fi
    jattach "$jv_dir/vm-flags.txt" jcmd-vm-flags "$budget_jvm" "$jv_jcmd" "$1" VM.flags
    o_mask=1
    o_msrc=$jv_dir/vm-command-line.txt
    jattach "$jv_dir/vm-command-line.txt" jcmd-vm-command-line "$budget_jvm" "$jv_jcmd" "$1" \
        VM.command_line
    o_mask=1
    o_msrc=$jv_dir/vm-system-properties.txt
    jattach "$jv_dir/vm-system-properties.txt" jcmd-vm-system-properties "$budget_jvm" \
        "$jv_jcmd" "$1" VM.system_properties
    jvm_service_configs "$1"
}

# jvm_unit PID: set ju_unit to the systemd service whose cgroup holds the process (the first
# `.service` of its path in the systemd hierarchy: `0::` on cgroup v2, `name=systemd` on v1),
# empty when none does.
jvm_unit() {
    ju_unit=
    [ -r "$root/proc/$1/cgroup" ] || return 0
    while IFS= read -r ju_l; do
        case $ju_l in
            0::* | *:name=systemd:*) ;;
            *) continue ;;
        esac
        ju_p=${ju_l#*:}
        ju_p=${ju_p#*:}
        case $ju_p in
            *.service*)
                ju_u=${ju_p%%.service*}
                ju_u=${ju_u##*/}
                [ -n "$ju_u" ] && ju_unit=$ju_u.service
                return 0
                ;;
        esac
    done <"$root/proc/$1/cgroup"
}

# jvm_gc_log PID: set gl_file to the JVM's current GC log file (empty if none is configured).
jvm_gc_log() {
    gl_file=
    gl_spec=
    while IFS= read -r gl_a; do
        case $gl_a in
            -Xloggc:*) gl_spec=${gl_a#-Xloggc:} ;;
            -Xlog:*)
                # -Xlog:SELECTORS[:OUTPUT[:DECORATORS[:OPTIONS]]]; OUTPUT = [file=]NAME
                gl_r=${gl_a#-Xlog:}
                case ${gl_r%%:*} in *gc*) ;; *) continue ;; esac
                case $gl_r in *:*) gl_o=${gl_r#*:} ;; *) continue ;; esac
                gl_o=${gl_o#file=}
                case $gl_o in
                    "$dq"*)
                        gl_o=${gl_o#"$dq"}
                        gl_o=${gl_o%%"$dq"*}
                        ;;
                    *) gl_o=${gl_o%%:*} ;;
                esac
                case $gl_o in '' | stdout | stderr) ;; *) gl_spec=$gl_o ;; esac
                ;;
        esac
    done <"$state/args.$1"
    [ -n "$gl_spec" ] || return 0
    # %p is the pid; %t the JVM's start time, which we match with *.
    while :; do
        case $gl_spec in
            *%p*) gl_spec=${gl_spec%%"%p"*}$1${gl_spec#*"%p"} ;;
            *%t*) gl_spec=${gl_spec%%"%t"*}'*'${gl_spec#*"%t"} ;;
            *) break ;;
        esac
    done
    case $gl_spec in /*) ;; *) gl_spec=$root/proc/$1/cwd/$gl_spec ;; esac
    gl_want=$gl_spec
    # JDK 8 rotation writes FILE.N.current; JDK 9+ keeps writing FILE itself.
    gl_ifs=$IFS
    IFS=
    # shellcheck disable=SC2086 # globbing (not splitting: IFS is empty) is the point
    set -- $gl_spec $gl_spec.*.current
    IFS=$gl_ifs
    gl_n=0
    for gl_c in "$@"; do
        [ -f "$gl_c" ] || continue
        gl_n=$((gl_n + 1))
        gl_file=$gl_c
    done
    if [ "$gl_n" -gt 1 ] && aux "$state/gclogs.$1" /dev/null ls -t "$@"; then
        read -r gl_file <"$state/gclogs.$1"
    fi
}

# jvm_service_configs PID: zoo.cfg of a ZooKeeper JVM, *-site.xml of a Hadoop/YARN JVM.
jvm_service_configs() {
    sc_zk=0
    sc_hd=0
    sc_cp=
    sc_next=0
    sc_cfgs=
    sc_dirs=
    while IFS= read -r sc_a; do
        if [ "$sc_next" = 1 ]; then
            sc_cp=$sc_a
            sc_next=0
            continue
        fi
        case $sc_a in
            -cp | -classpath | --class-path) sc_next=1 ;;
            -Djava.class.path=*) sc_cp=${sc_a#*=} ;;
            -Dhadoop.conf.dir=*) sc_dirs="$sc_dirs$nl${sc_a#*=}" ;;
            -*) ;;
            *org.apache.zookeeper.server*) sc_zk=1 ;;
            *org.apache.hadoop.*) sc_hd=1 ;;
            *.cfg) sc_cfgs="$sc_cfgs$nl$sc_a" ;;
        esac
    done <"$state/args.$1"
    [ "$sc_zk" = 1 ] || [ "$sc_hd" = 1 ] || return 0
    # Classpath folders (conf dirs) hold zoo.cfg and the *-site.xml files. A ZooKeeper started
    # with a config file reads only that one: a zoo.cfg in its conf dir is then not in use (the
    # packaged /etc/zookeeper/conf/zoo.cfg on the classpath of a server started by zkServer.sh
    # with another file) and is left out.
    sc_argcfg=$sc_cfgs
    sc_ifs=$IFS
    IFS=:
    for sc_e in $sc_cp; do
        case $sc_e in *.jar | *'*' | '') continue ;; esac
        sc_dirs="$sc_dirs$nl$sc_e"
    done
    IFS=$sc_ifs
    if [ "$sc_hd" = 1 ] && [ -r "$root/proc/$1/environ" ] &&
        aux "$state/environ.$1" "$root/proc/$1/environ" tr '\0' '\n'; then
        while IFS= read -r sc_a; do
            case $sc_a in
                HADOOP_CONF_DIR=* | YARN_CONF_DIR=*) sc_dirs="$sc_dirs$nl${sc_a#*=}" ;;
            esac
        done <"$state/environ.$1"
    fi
    IFS=$nl
    for sc_d in $sc_dirs; do
        IFS=$sc_ifs
        case $sc_d in /*) ;; *) sc_d=$root/proc/$1/cwd/$sc_d ;; esac
        sc_d=${sc_d%/}
        [ -d "$sc_d" ] || continue
        if [ "$sc_zk" = 1 ] && [ -z "$sc_argcfg" ] && [ -f "$sc_d/zoo.cfg" ]; then
            sc_cfgs="$sc_cfgs$nl$sc_d/zoo.cfg"
        fi
        if [ "$sc_hd" = 1 ]; then
            for sc_f in "$sc_d"/*-site.xml; do
                [ -f "$sc_f" ] && copy_config "$sc_f" hadoop-site-xml
            done
        fi
    done
    IFS=$nl
    for sc_f in $sc_cfgs; do
        IFS=$sc_ifs
        [ "$sc_zk" = 1 ] || continue
        case $sc_f in /*) ;; *) sc_f=$root/proc/$1/cwd/$sc_f ;; esac
        [ -f "$sc_f" ] && copy_config "$sc_f" zoo-cfg
    done
    IFS=$sc_ifs
}

# ---- configuration files --------------------------------------------------------------------

# config_dest FILE: set cc_path to FILE's path in the bundle, configs/<absolute path>, free of
# . and .. components (the analyzer refuses them).
config_dest() {
    cc_path=configs/$1
    while :; do
        case $cc_path in
            *//*) cc_path=${cc_path%%//*}/${cc_path#*//} ;;
            */./*) cc_path=${cc_path%%/./*}/_./${cc_path#*/./} ;;
            */../*) cc_path=${cc_path%%/../*}/_../${cc_path#*/../} ;;
            */.. | */.) cc_path=${cc_path}_ ;;
            *) break ;;
        esac
    done
}

# copy_config FILE KIND: copy FILE (once) into configs/<absolute path>, secrets masked. Key
# stores, keytabs, private keys, credential stores and binary files hold no settings rca reads
# and secrets the masker cannot see: they are never copied, their record says what they are.
copy_config() {
    cc_src=$1
    case $copied in *"|$cc_src|"*) return 0 ;; esac
    copied="$copied|$cc_src|"
    config_dest "$cc_src"
    cc_why=
    case $cc_src in
        */.netrc | */_netrc | */.pgpass | */pgpass.conf | */.git-credentials | */.htpasswd | \
            */htpasswd | */shadow | */shadow- | */gshadow | */gshadow- | */opasswd | \
            *.[kK][dD][bB][xX])
            cc_why="a credential store"
            ;;
        *.[jJ][kK][sS] | *.[jJ][cC][eE][kK][sS] | *.[bB][cC][fF][kK][sS] | *.[pP]12 | \
            *.[pP][fF][xX] | *.[kK][eE][yY][sS][tT][oO][rR][eE] | *.[kK][dD][bB] | \
            *.[tT][rR][uU][sS][tT][sS][tT][oO][rR][eE] | *.[sS][tT][hH])
            cc_why="a key store"
            ;;
        *.[kK][eE][yY][tT][aA][bB] | */keytab) cc_why="a Kerberos keytab" ;;
        *.[kK][eE][yY] | */id_rsa | */id_dsa | */id_ecdsa | */id_ed25519) cc_why="a private key" ;;
    esac
    if [ -z "$cc_why" ]; then
        # shellcheck disable=SC2016 # expanded by the inner sh
        if aux "$state/cfgtype" "$cc_src" sh -c 'head -c 1048576 | tr "\000" "\001" | awk -f "$1"' \
            sh "$state/cfgtype.awk"; then
            read -r cc_why <"$state/cfgtype"
        elif [ -r "$cc_src" ]; then
            cc_why="its type could not be checked"
        fi
    fi
    if [ -n "$cc_why" ]; then
        window_tick
        skip "$cc_path" "$2" "skipped: not copied: $cc_why" "cat $cc_src"
        return 0
    fi
    o_mask=1
    o_msrc=$cc_src
    run "$cc_path" "$2" "$budget_quick" cat "$cc_src"
}

# config_link LINK: record a symbolic link met under a --config folder, with its target. It is
# not followed: a link to / would walk the whole file system, one to /etc/shadow copy it.
config_link() {
    lk_to=
    if aux "$state/link" /dev/null readlink "$1"; then
        read -r lk_to <"$state/link"
    fi
    config_dest "$1"
    window_tick
    skip "$cc_path" config "skipped: symbolic link to ${lk_to:-?} (links under a --config folder are not followed)" \
        "readlink $1"
}

collect_configs() {
    cf_ifs=$IFS
    IFS=$nl
    for cf_p in $opt_configs; do
        IFS=$cf_ifs
        case $cf_p in /*) ;; *) cf_p=$start_dir/$cf_p ;; esac
        if [ "$interrupted" = 1 ]; then
            skip "configs$cf_p" config "skipped: interrupted" "cat $cf_p"
        elif [ -d "$cf_p" ]; then
            # The folder itself may be a link (/etc/hadoop/conf -> alternatives): the trailing /
            # makes find start in its target. Links under it are listed, never followed.
            if aux "$state/config-list" /dev/null find "${cf_p%/}/" '(' -type f -o -type l ')'; then :; fi
            cf_n=0
            while IFS= read -r cf_f; do
                cf_n=$((cf_n + 1))
                [ "$cf_n" -le 200 ] || continue
                if [ -h "$cf_f" ]; then
                    config_link "$cf_f"
                else
                    copy_config "$cf_f" config
                fi
            done <"$state/config-list"
            if [ "$cf_n" -gt 200 ]; then
                window_tick
                skip "configs${cf_p%/}" config \
                    "skipped: $((cf_n - 200)) more files under $cf_p (only the first 200 are copied)" \
                    "find ${cf_p%/}/ ( -type f -o -type l )"
            fi
        elif [ -e "$cf_p" ]; then
            copy_config "$cf_p" config
        else
            window_tick
            skip "configs$cf_p" config "not found: $cf_p" "cat $cf_p"
        fi
    done
    IFS=$cf_ifs
    # The collector's own environment may name Hadoop's configuration too.
    if [ -n "${HADOOP_CONF_DIR-}" ] && [ -d "$HADOOP_CONF_DIR" ]; then
        for cf_f in "${HADOOP_CONF_DIR%/}"/*-site.xml; do
            [ -f "$cf_f" ] && copy_config "$cf_f" hadoop-site-xml
        done
    fi
}

# ---- ZooKeeper four-letter words (only to the --zk addresses) -------------------------------

collect_zk() {
    [ -n "$opt_zks" ] || return 0
    # nc from OpenBSD, traditional netcat and BusyBox keep reading after stdin's end until the
    # server closes; Ncat (also installed as `nc` on RHEL) quits at stdin's end, so it is fed
    # the word and then 2 s of silence.
    zk_nc=
    if have_cmd nc; then
        zk_nc=nc
        if aux "$state/nc-version" /dev/null sh -c 'nc --version 2>&1' &&
            grep -q Ncat "$state/nc-version"; then
            zk_nc=ncat-as-nc
        fi
    elif have_cmd ncat; then
        zk_nc=ncat
    elif have_cmd busybox; then
        zk_nc=busybox
    fi
    for zk_a in $opt_zks; do
        zk_host=${zk_a%:*}
        zk_port=${zk_a##*:}
        zk_host=${zk_host#[}
        zk_host=${zk_host%]}
        zk_name=`printf '%s_%s' "$zk_host" "$zk_port" | tr -c 'A-Za-z0-9._-' '_'`
        for zk_w in mntr wchs conf srvr; do
            zk_path=zk/$zk_name/$zk_w.txt
            printf '%s' "$zk_w" >"$state/zk-$zk_w"
            o_warn='not in the whitelist|not executed|not currently serving'
            o_fail="no answer from $zk_host:$zk_port (refused, unreachable or timed out)"
            case $zk_nc in
                nc)
                    o_in=$state/zk-$zk_w
                    o_disp="printf $zk_w | nc -w 5 $zk_host $zk_port"
                    run "$zk_path" "zk-$zk_w" 15 nc -w 5 "$zk_host" "$zk_port"
                    ;;
                ncat | ncat-as-nc)
                    zk_bin=ncat
                    [ "$zk_nc" = ncat-as-nc ] && zk_bin=nc
                    o_disp="printf $zk_w | $zk_bin $zk_host $zk_port"
                    o_need=$zk_bin
                    # shellcheck disable=SC2016 # expanded by the inner sh
                    run "$zk_path" "zk-$zk_w" 15 sh -c \
                        '{ printf %s "$1"; sleep 2; } | "$2" -w 5 "$3" "$4"' \
                        sh "$zk_w" "$zk_bin" "$zk_host" "$zk_port"
                    ;;
                busybox)
                    o_in=$state/zk-$zk_w
                    o_disp="printf $zk_w | busybox nc -w 5 $zk_host $zk_port"
                    run "$zk_path" "zk-$zk_w" 15 busybox nc -w 5 "$zk_host" "$zk_port"
                    ;;
                *)
                    window_tick
                    skip "$zk_path" "zk-$zk_w" "not found: nc, ncat or busybox" \
                        "printf $zk_w | nc $zk_host $zk_port"
                    ;;
            esac
        done
    done
}

# ---- after the window -----------------------------------------------------------------------

collect_jvm_post() {
    jvm_thread_dump 2
    for jp_p in $jvms; do
        jvm_load "$jp_p"
        if [ -n "$jv_jcmd" ] || [ -z "$jv_jmap" ]; then
            if [ "$live_histogram" = 1 ]; then
                jattach "$jv_dir/class-histogram.txt" class-histogram "$budget_histo" \
                    "$jv_jcmd" "$jp_p" GC.class_histogram
            else
                jattach "$jv_dir/class-histogram.txt" class-histogram "$budget_histo" \
                    "$jv_jcmd" "$jp_p" GC.class_histogram -all
            fi
        elif [ "$live_histogram" = 1 ]; then
            jattach "$jv_dir/class-histogram.txt" class-histogram "$budget_histo" \
                "$jv_jmap" -histo:live "$jp_p"
        else
            jattach "$jv_dir/class-histogram.txt" class-histogram "$budget_histo" \
                "$jv_jmap" -histo "$jp_p"
        fi
        jvm_gc_log "$jp_p"
        if [ -n "$gl_file" ]; then
            o_cap=$max_log_bytes
            o_capwhy="log cap"
            run "$jv_dir/gc.log" gc-log "$budget_quick" tail -c "$max_log_bytes" "$gl_file"
        elif [ -n "$gl_spec" ]; then
            skip "$jv_dir/gc.log" gc-log "not found: GC log $gl_want (named on the command line)" \
                "tail -c $max_log_bytes $gl_want"
        else
            skip "$jv_dir/gc.log" gc-log \
                "skipped: the command line names no GC log file (-Xloggc:FILE or -Xlog:gc...:file=FILE)" \
                "tail -c $max_log_bytes GCLOG"
        fi
        set -- "$root/proc/$jp_p/task"/*/comm
        if [ -f "$1" ]; then
            o_filter="sort -rn"
            o_fdisp=$o_filter
            o_disp="awk -f threads.awk $root/proc/$jp_p/task/*/comm | sort -rn"
            run "$jv_dir/threads.tsv" jvm-threads "$budget_quick" awk -f "$state/threads.awk" "$@"
        else
            skip "$jv_dir/threads.tsv" jvm-threads "not found: process $jp_p has ended" \
                "awk -f threads.awk $root/proc/$jp_p/task/*/comm"
        fi
    done
}

# The look-back of the kernel log before the window's start, seconds: a day shows what happened
# before the incident (an earlier OOM kill, link flaps since the morning) while staying small.
klog_lookback_s=86400

# The kernel's log with dates: `dmesg` stamps are seconds since boot, which drift from the wall
# clock across suspends and say nothing of the date. journalctl's `-o short-iso` (systemd 209
# and later, so RHEL 7 on) prints the date and the zone. Run after the window, so that the
# window's own messages are in it. Where the journal has no kernel line (no journald, a volatile
# journal already rotated, no permission), `dmesg -T` prints the ring buffer in local time.
collect_klog_post() {
    ck_since=${started%%.*}
    ck_since=$((ck_since - klog_lookback_s))
    o_filter="tail -n 5000"
    o_fdisp=$o_filter
    run kernel/journalctl-k.txt syslog "$budget_quick" \
        journalctl -k --no-pager -o short-iso --since "@$ck_since"
    if ! grep -q ' kernel: ' "$top/kernel/journalctl-k.txt" 2>/dev/null; then
        o_filter="tail -n 5000"
        o_fdisp=$o_filter
        run kernel/dmesg-T.txt dmesg "$budget_quick" dmesg -T
    fi
}

collect_perf_post() {
    cp_data=$tmp/perf.data
    cp_why=
    if [ -n "$perf_why" ]; then
        cp_why=$perf_why
    elif [ "$interrupted" = 1 ] && [ "$perf_state" = run ]; then
        cp_why="skipped: interrupted"
        perf_state="interrupted"
    elif [ "$perf_state" != run ]; then
        cp_why="skipped: perf record did not run ($perf_state)"
    elif [ -z "$perf_rec_id" ]; then
        cp_why="skipped: perf record did not start"
        perf_state="failed: perf record did not start"
    elif [ "$perf_rc" != 0 ] || [ ! -s "$cp_data" ]; then
        cp_why="skipped: perf record failed (${perf_note:-no perf.data}; see perf/perf-record.log)"
        perf_state="failed: ${perf_note:-no perf.data}"
    else
        perf_state=recorded
    fi
    if [ -n "$cp_why" ]; then
        skip perf/perf-report-comm-dso-symbol.txt perf-report "$cp_why" \
            "perf report --stdio --no-children --sort comm,dso,symbol -i perf.data"
        skip perf/perf-report-dso.txt perf-report "$cp_why" "perf report --stdio --sort dso -i perf.data"
        skip perf/perf-script.txt perf-script "$cp_why" "perf script -i perf.data"
        if [ "$keep_perf_data" = 1 ]; then
            skip perf/perf.data perf-data "$cp_why" "cat perf.data"
        fi
        return 0
    fi
    run perf/perf-report-comm-dso-symbol.txt perf-report "$budget_post" \
        perf report --stdio --no-children --sort comm,dso,symbol -i "$cp_data"
    run perf/perf-report-dso.txt perf-report "$budget_post" perf report --stdio --sort dso -i "$cp_data"
    o_filter="head -c $max_perf_script_bytes"
    o_fdisp=$o_filter
    o_cap=$max_perf_script_bytes
    o_capwhy="perf script cap"
    run perf/perf-script.txt perf-script "$budget_script" perf script -i "$cp_data"
    if [ "$keep_perf_data" = 1 ]; then
        run perf/perf.data perf-data "$budget_quick" cat "$cp_data"
    fi
}

# The daily sysstat files of today and yesterday: the newest two sa[0-9][0-9] modified in the
# last 2 days (a name check alone would pick last month's file of the same day).
collect_sadf() {
    if [ "$interrupted" = 1 ]; then
        skip sysstat/sa sadf-json "skipped: interrupted" "sadf -j saDD"
        return 0
    fi
    sd_dirs=
    for sd_d in $sa_dirs; do
        [ -d "$root$sd_d" ] && sd_dirs="$sd_dirs $root$sd_d"
    done
    if [ -z "$sd_dirs" ]; then
        skip sysstat/sa sadf-json "not found: no sysstat data folder ($sa_dirs)" "sadf -j saDD"
        return 0
    fi
    : >"$state/sa-list"
    # shellcheck disable=SC2086 # one word per folder
    aux "$state/sa-list" /dev/null find $sd_dirs -name 'sa[0-9][0-9]' -type f -mtime -2
    set --
    while IFS= read -r sd_f; do set -- "$@" "$sd_f"; done <"$state/sa-list"
    if [ $# -eq 0 ]; then
        skip sysstat/sa sadf-json "not found: no sa file modified in the last 2 days in$sd_dirs" \
            "sadf -j saDD"
        return 0
    fi
    if [ $# -gt 2 ] && aux "$state/sa-sorted" /dev/null ls -t "$@"; then
        set --
        while IFS= read -r sd_f; do [ $# -lt 2 ] && set -- "$@" "$sd_f"; done <"$state/sa-sorted"
    fi
    for sd_f in "$@"; do
        run "sysstat/sa/${sd_f##*/}.json" sadf-json "$budget_post" \
            sadf -j "$sd_f" -- -bBdqrSuvwW -n DEV,EDEV -P ALL
    done
}

# ---------------------------------------------------------------------------------------------
# Finishing: log record, manifest, tarball

meta() {
    clean "$2"
    printf 'meta\t%s\t%s\n' "$1" "$cl_v"
    meta_n=$((meta_n + 1))
}

# incomplete_why: set iw_v to why the bundle is incomplete, reasons joined by `; ` (empty when
# it is complete).
incomplete_why() {
    iw_v=
    case $signal_status in
        129) iw_v="interrupted by SIGHUP" ;;
        130) iw_v="interrupted by SIGINT" ;;
        143) iw_v="interrupted by SIGTERM" ;;
    esac
    if [ "$dl_skipped" -gt 0 ] || [ "$dl_cut" -gt 0 ]; then
        iw_v="${iw_v:+$iw_v; }deadline of $deadline s reached: $dl_skipped step(s) skipped, $dl_cut cut short (raise it with --deadline)"
    fi
    if [ -n "$wf_first" ] || [ "$wf_skipped" -gt 0 ]; then
        iw_v="${iw_v:+$iw_v; }${wf_first:-no space left in the temp folder}: $wf_n output(s) may be cut, $wf_skipped step(s) skipped (free space in $tmp, or point TMPDIR at a filesystem with room)"
    fi
    if [ "$rec_lost" -gt 0 ]; then
        iw_v="${iw_v:+$iw_v; }$rec_lost manifest record(s) could not be written to $state"
    fi
}

# write_manifest WHY [RECORDS]: write manifest.tsv with meta incomplete = WHY (complete = 0
# unless it is empty), and the artifact records unless RECORDS is `none`. Returns 0 when the
# file holds every line meant (a write that failed half-way leaves fewer, or a cut last line).
write_manifest() {
    wm_complete=1
    [ -n "$1" ] && wm_complete=0
    meta_n=0
    wm_recs=$rec_n
    [ "${2-}" = none ] && wm_recs=0
    {
        printf '# rca-manifest 1\n'
        meta collector_version "$collector_version"
        meta hostname "$hostname"
        meta user "$user"
        meta uid "$uid"
        meta kernel "$kernel"
        meta machine "$machine"
        meta started "$started"
        meta ended "$ended"
        meta duration "$duration"
        meta interval "$interval"
        meta options "$options"
        meta complete "$wm_complete"
        meta orig_lc_all "$orig_lc_all"
        meta orig_lang "$orig_lang"
        meta orig_tz "$orig_tz"
        meta timeout_impl "$timeout_impl"
        meta sysstat_version "$sysstat_version"
        meta label "$opt_label"
        meta pids "$targets"
        meta jvms "$jvms"
        meta perf "$perf_state"
        meta perf_event_paranoid "$perf_paranoid"
        meta kptr_restrict "$kptr_restrict"
        meta live_histogram "$live_histogram"
        meta keep_perf_data "$keep_perf_data"
        meta zk "${opt_zks# }"
        meta max_bytes "$max_bytes"
        meta max_artifact_bytes "$max_artifact_bytes"
        meta max_log_bytes "$max_log_bytes"
        meta max_thread_dump_bytes "$max_thread_dump_bytes"
        meta max_perf_script_bytes "$max_perf_script_bytes"
        meta secrets_masked "$masked_total"
        meta deadline "$deadline"
        meta incomplete "$1"
        meta cpu_window "$cpu_window"
        meta collector_cpu_seconds "$collector_cpu_s"
        meta collector_cpu_percent "$collector_cpu_pct"
        meta samplers_cpu_seconds "$samplers_cpu_s"
        meta perf_record_cpu_seconds "$perf_cpu_s"
        # Always the records meant, also in the short manifest: a reader sees they are missing.
        meta records "$rec_n"
        if [ "$wm_recs" != 0 ]; then
            # Plan order; the id's number goes (there is always one record: collector.log's).
            sort -n -k1,1 "$state/records" | cut -f 2-
        fi
    } 2>/dev/null >"$top/manifest.tsv"
    wm_have=
    wc -l <"$top/manifest.tsv" 2>/dev/null >"$state/manifest.lines"
    read -r wm_have 2>/dev/null <"$state/manifest.lines"
    wm_want=$((1 + meta_n + wm_recs))
    [ "${wm_have:-0}" -eq "$wm_want" ]
}

finalize() {
    # From here on the deadline no longer applies: what was collected is written out.
    dl_exempt=1
    # The redaction log lists what was masked anywhere in the bundle; it is written even
    # after an interrupt (closing), like the end snapshots.
    closing=1
    run redaction-log.tsv redaction-log "$budget_quick" cat "$state/redactions.tsv"
    closing=0
    ended=`wall`
    incomplete_why
    if [ -n "$iw_v" ]; then
        say "collection incomplete ($iw_v); writing the partial bundle"
    else
        say "collection complete; writing the bundle"
    fi
    # The log's record describes the log as it is now; later messages go to stderr only.
    next_id
    fz_log_id=$cur_id
    wc -c <"$log" >"$state/log.size"
    read -r fz_bytes <"$state/log.size"
    write_record "$fz_log_id" collector.log collector-log "" 0 "$started" "$ended" \
        "$fz_bytes" 0 "" ""
    log=
    # The reserve makes room for the manifest (see "Write failures" in the header).
    rm -f "$reserve" "$probe"
    reserve=
    probe=
    incomplete_why
    if ! write_manifest "$iw_v"; then
        # Cut half-way: a short manifest (meta only) still says what happened.
        err "manifest.tsv could not be written in full ($wm_have of $wm_want lines); writing one without its artifact records"
        iw_v="${iw_v:+$iw_v; }no space left on device while writing manifest.tsv: its $rec_n artifact records are missing"
        if ! write_manifest "$iw_v" none; then
            rm -f "$top/manifest.tsv"
            die "cannot write manifest.tsv in $tmp (no space left on device?); no tarball written. Free space there or point TMPDIR at a filesystem with room"
        fi
    fi
    # The exit status follows what the manifest says: an interrupt that arrives while the
    # tarball is being written (tar is not stopped) leaves a complete bundle and status 0.
    exit_status=$signal_status
    if [ "$exit_status" = 0 ] && [ -n "$iw_v" ]; then
        exit_status=3
    fi

    fz_final=$outdir/$topname.tar.gz
    part=$outdir/.$topname.tar.gz.part.$$
    next_id
    fz_tar=$cur_id
    # tar -czf: GNU tar pipes through gzip, BusyBox tar compresses itself. -C keeps the
    # entries relative, so all of them sit under the one top folder.
    spawn_exempt=1
    spawn "$fz_tar" "$budget_tar" "$state/$fz_tar.out" /dev/null 0 tar -czf "$part" -C "$tmp" "$topname"
    spawn_exempt=0
    reap "$fz_tar"
    read_done "$fz_tar"
    fz_rc=$jd_rc
    if [ "$fz_rc" != 0 ]; then
        sed -n '1,5p' "$state/$fz_tar.err" >&2
        die "tar failed (exit ${fz_rc:-none}); no tarball written"
    fi
    if ! mv "$part" "$fz_final"; then
        die "cannot move $part to $fz_final"
    fi
    part=
    say "wrote $fz_final"
    [ -n "$iw_v" ] && say "the bundle is incomplete: $iw_v"
    printf '%s\n' "$fz_final"
}

# ---------------------------------------------------------------------------------------------
# Main

options=$*
while [ $# -gt 0 ]; do
    m_opt=
    case $1 in
        --help | -h)
            usage
            exit 0
            ;;
        --version)
            printf 'rca collector.sh %s\n' "$collector_version"
            exit 0
            ;;
        --no-perf) no_perf=1 ;;
        --keep-perf-data) keep_perf_data=1 ;;
        --live-histogram) live_histogram=1 ;;
        --duration | --interval | --output | --max-bytes | --max-artifact-bytes | \
            --max-log-bytes | --max-thread-dump-bytes | --max-perf-script-bytes | --pid | \
            --label | --config | --zk | --deadline)
            [ $# -ge 2 ] || usage_error "option $1 needs a value"
            m_opt=$1
            m_val=$2
            shift
            ;;
        --duration=* | --interval=* | --output=* | --max-bytes=* | --max-artifact-bytes=* | \
            --max-log-bytes=* | --max-thread-dump-bytes=* | --max-perf-script-bytes=* | \
            --pid=* | --label=* | --config=* | --zk=* | --deadline=*)
            m_opt=${1%%=*}
            m_val=${1#*=}
            ;;
        *)
            usage_error "unknown option: $1"
            ;;
    esac
    shift
    case $m_opt in
        '') ;;
        --output) outdir=$m_val ;;
        --label) opt_label=$m_val ;;
        --config)
            [ -n "$m_val" ] || usage_error "--config needs a path"
            opt_configs="$opt_configs$nl$m_val"
            ;;
        --zk)
            m_port=${m_val##*:}
            m_host=${m_val%:*}
            case $m_val in
                *:*) ;;
                *) usage_error "--zk needs HOST:PORT, got '$m_val'" ;;
            esac
            case $m_host in
                '' | *[!A-Za-z0-9.:_\[\]-]*) usage_error "--zk needs HOST:PORT, got '$m_val'" ;;
            esac
            is_uint "$m_port" || usage_error "--zk needs HOST:PORT, got '$m_val'"
            opt_zks="$opt_zks $m_val"
            ;;
        *)
            is_uint "$m_val" || usage_error "$m_opt needs a whole number, got '$m_val'"
            decimal "$m_val"
            m_val=$dc_n
            case $m_opt in
                --duration) duration=$m_val ;;
                --interval) interval=$m_val ;;
                --max-bytes) max_bytes=$m_val ;;
                --max-artifact-bytes) max_artifact_bytes=$m_val ;;
                --max-log-bytes) max_log_bytes=$m_val ;;
                --max-thread-dump-bytes) max_thread_dump_bytes=$m_val ;;
                --max-perf-script-bytes) max_perf_script_bytes=$m_val ;;
                --deadline) deadline=$m_val ;;
                --pid)
                    in_list "$m_val" "$opt_pids" || opt_pids="$opt_pids $m_val"
                    ;;
            esac
            ;;
    esac
done
[ "$duration" -ge 1 ] 2>/dev/null || usage_error "--duration must be at least 1"
[ "$interval" -ge 1 ] 2>/dev/null || usage_error "--interval must be at least 1"
if [ -z "$deadline" ]; then
    deadline=$((duration + deadline_margin))
elif [ "$deadline" -le "$duration" ]; then
    usage_error "--deadline ($deadline s) must be longer than the sampling window (--duration $duration)"
fi
for m_cap in "$max_log_bytes" "$max_thread_dump_bytes" "$max_perf_script_bytes"; do
    [ "$m_cap" -ge 1 ] || usage_error "size caps must be at least 1"
done

for m_cmd in cat date mkdir rm mv sed tr wc head grep sleep uname tar awk; do
    need_cmd "$m_cmd"
done

start_dir=`pwd`
[ -d "$outdir" ] || die "output directory '$outdir' does not exist; create it or pass --output DIR"
outdir=`cd "$outdir" && pwd` || die "cannot enter output directory '$outdir'"
[ -w "$outdir" ] || die "output directory '$outdir' is not writable; pass --output DIR"

# The deadline counts from here (before any command that could hang).
deadline_start
probe_clock
started=`wall`
hostname=`uname -n 2>/dev/null`
[ -n "$hostname" ] || hostname=unknown
kernel=`uname -r 2>/dev/null`
machine=`uname -m 2>/dev/null`
uid=`id -u 2>/dev/null`
user=`id -un 2>/dev/null` || user=${USER-${LOGNAME-}}
host_safe=`printf '%s' "$hostname" | tr -c 'A-Za-z0-9._-' '_'`
m_stamp=`date -u +%Y%m%dT%H%M%SZ`
topname=rca-$host_safe-$m_stamp

# mktemp -d is not POSIX; where it is missing, mkdir is atomic and fails on an existing name,
# so a fresh name with mode 700 is just as safe.
m_tmpbase=${TMPDIR:-/tmp}
tmp=`mktemp -d "$m_tmpbase/rca-collector.XXXXXX" 2>/dev/null` || tmp=
if [ -z "$tmp" ]; then
    m_try=0
    while [ "$m_try" -lt 20 ]; do
        m_epoch=`epoch_s`
        m_cand=$m_tmpbase/rca-collector.$$.$m_try.$m_epoch
        if mkdir -m 700 "$m_cand" 2>/dev/null; then
            tmp=$m_cand
            break
        fi
        m_try=$((m_try + 1))
    done
fi
if [ -z "$tmp" ]; then
    # Say why (a full filesystem, permissions): one more try, its message kept.
    m_why=`mkdir -m 700 "$m_tmpbase/rca-collector.$$.why" 2>&1 && rmdir "$m_tmpbase/rca-collector.$$.why"`
    die "cannot create a private temp directory under $m_tmpbase${m_why:+ ($m_why)}; set TMPDIR to a folder with room"
fi

trap cleanup EXIT
# The bookkeeping files (a few small files per command) go to a tmpfs when there is one:
# creating files on a disk file system was half of the collector's own CPU time (ext4,
# measured: 5.9 ms per command with them under /tmp, 2.8 ms under /dev/shm). Outputs and
# perf.data stay in $tmp.
state=
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    state=`mktemp -d /dev/shm/rca-collector-state.XXXXXX 2>/dev/null` || state=
fi
if [ -z "$state" ]; then
    state=$tmp/state
    mkdir "$state" || die "cannot create directories in $tmp"
fi
stop_flag=$state/interrupted
top=$tmp/$topname
mkdir "$top" || die "cannot create directories in $tmp"
# Room for the outputs (see "Write failures" in the header): a first test write, which must
# succeed, and the reserve kept for the manifest, written below once tar has been tried.
probe=$tmp/space-probe
space_ok || die "no space left in the temp folder $tmp (a 4 KiB test write failed); free space there or point TMPDIR at a filesystem with room"
log=$top/collector.log
: >"$log" || die "cannot create files in $tmp"
# From here on an interrupt still yields a tarball (on_signal needs $state).
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
if [ -n "$pending_signal" ]; then
    on_signal "$pending_signal"
fi

# Fail now, not after the window, if this tar cannot write gzip (GNU tar needs gzip).
if ! { mkdir "$tmp/tar-probe" && tar -czf "$tmp/tar-probe.tar.gz" -C "$tmp" tar-probe; } >/dev/null 2>&1; then
    space_ok || die "no space left in the temp folder $tmp; free space there or point TMPDIR at a filesystem with room"
    die "'tar -czf' does not work here (GNU tar needs gzip); install gzip"
fi
rm -rf "$tmp/tar-probe" "$tmp/tar-probe.tar.gz"
# The reserve: random bytes, so that a compressing filesystem stores them too. Where less is
# free it holds what fits.
reserve=$tmp/space-reserve
head -c 262144 /dev/urandom 2>/dev/null >"$reserve"

probe_timeout
load_scale
m_impl=$timeout_impl
[ "$timeout_busybox_t" = 1 ] && m_impl="$m_impl (timeout -t syntax)"
[ -n "$group_cmd" ] && m_impl="$m_impl, $group_cmd"
say "rca collector $collector_version on $hostname as ${user:-uid $uid}; budgets via $m_impl; deadline ${deadline} s"
m_margin=$(((interval + 5 + duration / 10) * load_pct / 100))
say "$load_why: JDK tool ${budget_jvm} s, host fact ${budget_quick} s, window samplers $duration + $m_margin s, jstat $budget_jstart s more"
[ "$uid" = 0 ] || say "not running as root: some evidence may be missing or permission-limited"

write_helpers
collect_system
discover_targets
window_open
collect_kernel
collect_cpu
collect_mem
collect_storage
collect_net
collect_time
collect_processes
collect_targets
collect_configs
collect_zk
window_close
collect_klog_post
collect_jvm_post
collect_perf_post
collect_sadf

finalize
exit "$exit_status"
