#!/usr/bin/env bash
# tests/collector/run.sh - end-to-end tests of collector.sh.
#
# Runs shellcheck, then the collector for real on this machine (as root when the suite runs as
# root) with sysstat, perf, a real JVM (tests/collector/Alloc.java, started as `nobody`) and a
# real ZooKeeper (started here on 127.0.0.1, free port, temp data dir), under bash, dash and
# BusyBox sh and as the unprivileged user nobody; plus a BusyBox-only userland, a hung iostat
# under each timeout implementation (coreutils, busybox, watchdog), a hung ethtool on six NICs
# against a short --deadline under each of them, a missing mpstat, tiny size
# caps, SIGTERM mid-run, the su fallback for attaching, planted secrets in --config files and
# on the JVM's command line; with RCA_OVERHEAD_BUDGET=1 (bench/collector-overhead.sh), two 60 s
# runs with perf off that measure the collector's own CPU time against its budgets. Runs are
# started in parallel, in groups (the light runs; the real runs; the overhead runs), then
# checked; the whole script takes about 1 minute on 2 cores (about 2 with the overhead runs).
# Prints `N passed, N failed` last; exits 1 if anything failed.
#
# Needs: shellcheck, sysstat, tar with gzip, dash, busybox; for the real runs a JDK, the Debian
# `zookeeper` package, netcat, perf (linux-perf), ethtool, numactl, pciutils, net-tools.
# Packages come from .ci/run; this script installs nothing. With RCA_HOST_TESTS=1 a real run
# that cannot happen is a failure, otherwise it is skipped with a note.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
collector=${RCA_COLLECTOR:-$repo/collector.sh} # override to test another copy
strict=${RCA_HOST_TESTS:-0}

# shellcheck source=tests/checks.sh
. "$here/../checks.sh"

suite_t0=$(date +%s)
# RCA_TEST_LOAD names the load the caller keeps the machine under (the host tests run the suite
# once more beside two CPU hogs); the checks are the same.
[ -z "${RCA_TEST_LOAD:-}" ] || echo "note    the machine is kept busy for this run: $RCA_TEST_LOAD (load average now: $(cut -d ' ' -f 1-4 /proc/loadavg))"
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-collector-test.XXXXXX") || exit 1
chmod 711 "$work" # the unprivileged runs must be able to reach their own output dirs
bg_pids=()        # JVM, ZooKeeper: stopped at exit
cleanup() {
    local p
    for p in "${bg_pids[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${bg_pids[@]}"; do
        wait "$p" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT

# --- prerequisites ---------------------------------------------------------------------------
# Packages are installed by .ci/run, never here: a missing tool fails the checks that need it,
# or skips them (see `real_why` below).
for tool in shellcheck dash busybox iostat mpstat tar timeout; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        not_ok "prerequisite '$tool' is missing"
    fi
done
if [ "$failed" -gt 0 ]; then
    echo "$passed passed, $failed failed"
    exit 1
fi
dash_bin=$(command -v dash)
bash_bin=$(command -v bash)
busybox_bin=$(command -v busybox)

# For the real runs: a JDK, ZooKeeper, netcat, perf, ethtool (installed by .ci/run).
real_why=
command -v javac >/dev/null 2>&1 || real_why="$real_why javac"
command -v java >/dev/null 2>&1 || real_why="$real_why java"
[ -f /usr/share/java/zookeeper.jar ] || real_why="$real_why zookeeper"
command -v nc >/dev/null 2>&1 || real_why="$real_why nc"
[ "$(id -u)" = 0 ] || real_why="$real_why (not root)"
id nobody >/dev/null 2>&1 || real_why="$real_why (no user nobody)"
if [ -n "$real_why" ]; then
    if [ "$strict" = 1 ]; then
        not_ok "real runs need:$real_why"
    else
        echo "skip    real runs (JVM, ZooKeeper, perf) need:$real_why"
    fi
fi

# --- shellcheck ------------------------------------------------------------------------------
if out=$(shellcheck -s sh "$collector" 2>&1); then
    ok "shellcheck -s sh collector.sh is clean"
else
    not_ok "shellcheck -s sh collector.sh"
    printf '%s\n' "$out" | sed 's/^/    /'
fi
bad=$(grep -n 'shellcheck disable=' "$collector" | grep -v 'disable=[A-Z0-9,]* # ..')
check "every shellcheck disable in collector.sh carries its reason" [ -z "$bad" ]
[ -z "$bad" ] || printf '    %s\n' "$bad"

# --- fake PATH directories -------------------------------------------------------------------
# bin-hang: an iostat that prints its first line and then hangs, like a sampler on a host too
# busy to finish in time, with two children that hang too: one deaf to TERM, one long sleep.
# Each start appends "PID PGID CHILD CHILD" to $RCA_TEST_GROUPS, so that the checks can tell
# whether anything of the hung command's process group outlived the collector.
mkdir -p "$work/bin-hang"
cat >"$work/bin-hang/iostat" <<'EOF'
#!/bin/sh
echo "partial line"
sh -c 'trap "" TERM; while :; do sleep 1; done' &
c1=$!
sleep 3600 &
c2=$!
read -r _ _ _ _ pg _ </proc/$$/stat
echo "$$ $pg $c1 $c2" >>"${RCA_TEST_GROUPS:-/dev/null}"
while :; do sleep 1; done
EOF
chmod 755 "$work/bin-hang/iostat"

# bin-hang-eth: an ethtool that never answers (a shell loop, so killing it leaves no long
# orphan), and a fake root (RCA_ROOT) whose six NICs have a device behind them, so that the
# collector asks ethtool about each.
mkdir -p "$work/bin-hang-eth"
printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$work/bin-hang-eth/ethtool"
chmod 755 "$work/bin-hang-eth/ethtool"
for n in 0 1 2 3 4 5; do mkdir -p "$work/fake-nics/sys/class/net/eth$n/device"; done
chmod -R a+rX "$work/fake-nics"

# bin-nopriv: setpriv and runuser that refuse, so that attaching as a JVM's owner falls back
# to su.
mkdir -p "$work/bin-nopriv"
for t in setpriv runuser; do
    printf '#!/bin/sh\necho "%s: disabled by the test" >&2\nexit 1\n' "$t" >"$work/bin-nopriv/$t"
    chmod 755 "$work/bin-nopriv/$t"
done

# linkdir DIR EXCLUDED...: DIR gets a symlink to every command of /usr/bin and /bin but EXCLUDED.
linkdir() {
    local dir=$1 f b x skip
    shift
    mkdir -p "$dir"
    for f in /usr/bin/* /bin/*; do
        b=${f##*/}
        skip=0
        for x in "$@"; do [ "$b" = "$x" ] && skip=1; done
        [ "$skip" = 1 ] || [ -e "$dir/$b" ] || ln -s "$f" "$dir/$b"
    done
}
linkdir "$work/bin-nomp" mpstat
linkdir "$work/bin-notimeout" timeout

# bin-bb: nothing but BusyBox applets (date without %N, busybox tar/timeout/head) + sysstat.
mkdir -p "$work/bin-bb"
for a in $("$busybox_bin" --list); do ln -s "$busybox_bin" "$work/bin-bb/$a"; done
ln -sf "$(command -v iostat)" "$(command -v mpstat)" "$work/bin-bb/"

# start_overhead_run NAME ARGS...: a collector run (dash) whose CPU time is measured. The
# shell that starts it reports, after waiting for it, the CPU time of all its descendants
# (fields 16-17 of /proc/PID/stat: cutime, cstime). The samplers found through PATH (iostat,
# mpstat, vmstat, pidstat, sar with its sadc) run through wrappers (bin-wrap) that report
# their own CPU time the same way when they end (exact). jstat is started by absolute path
# (the JVM's own JDK), so a loop records its utime+stime every 0.5 s instead (the last 0.5 s
# is missed, which errs on the side of more collector overhead). Collector overhead =
# (tree - samplers) / wall time.
mkdir -p "$work/bin-wrap"
for t in iostat mpstat vmstat pidstat sar; do
    real_t=$(command -v "$t") || continue
    cat >"$work/bin-wrap/$t" <<EOF
#!/bin/sh
"$real_t" "\$@"
rc=\$?
# Probes (-V, the JSON trial, vmstat -t 1 1) are the collector's, not samplers.
case " \$* " in *" -V "* | *" -o JSON " | *" -t 1 1 ") ;; *)
    read -r s </proc/\$\$/stat
    echo "\$s" >>"\$RCA_TEST_SAMPLERS" ;;
esac
exit \$rc
EOF
    chmod 755 "$work/bin-wrap/$t"
done
ov_pids=()
start_overhead_run() {
    local name=$1
    shift
    mkdir -p "$work/$name/out"
    : >"$work/$name/samplers.log"
    : >"$work/$name/jstat.log"
    (
        t0=$(date +%s%N)
        # shellcheck disable=SC2016 # expanded by the inner sh
        env W="$work/$name" PATH="$work/bin-wrap:$PATH" RCA_TEST_SAMPLERS="$work/$name/samplers.log" \
            sh -c '"$@" >"$W/stdout" 2>"$W/stderr"; echo $? >"$W/rc"; cat /proc/$$/stat >"$W/tree.stat"' \
            sh "$dash_bin" "$collector" "$@" --output "$work/$name/out" &
        wpid=$!
        while kill -0 "$wpid" 2>/dev/null; do
            cat /proc/[0-9]*/stat 2>/dev/null | awk -v top="$wpid" '
                {
                    pid = $1; s = $0; sub(/^[0-9]+ \(/, "", s)
                    comm = s; sub(/\) .*/, "", comm); sub(/.*\) /, "", s)
                    split(s, f, " ")   # f[1] = state, f[2] = ppid, f[12] utime, f[13] stime
                    ppid[pid] = f[2]; name[pid] = comm; cpu[pid] = f[12] + f[13]
                }
                END {
                    for (p in name) {
                        if (name[p] != "jstat") continue
                        for (q = ppid[p]; q != "" && q != 0 && q != top; q = ppid[q]) ;
                        if (q == top) print p, name[p], cpu[p]
                    }
                }' >>"$work/$name/jstat.log"
            sleep 0.5
        done
        wait "$wpid"
        echo $((($(date +%s%N) - t0) / 1000000)) >"$work/$name/elapsed_ms"
    ) &
    ov_pids+=($!)
}

# --- runs, all in parallel -------------------------------------------------------------------
# start_run NAME PATH SHELL [SHELL_ARG...] -- ARGS...: run the collector in the background;
# NAME's directory gets out/, stdout, stderr, rc, elapsed_ms.
pids=()
start_run() {
    local name=$1 path=$2
    local -a shell=()
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        shell+=("$1")
        shift
    done
    shift
    mkdir -p "$work/$name/out"
    (
        t0=$(date +%s%N)
        env PATH="$path" "${shell[@]}" "$collector" "$@" --output "$work/$name/out" \
            >"$work/$name/stdout" 2>"$work/$name/stderr"
        echo $? >"$work/$name/rc"
        echo $((($(date +%s%N) - t0) / 1000000)) >"$work/$name/elapsed_ms"
    ) &
    pids+=($!)
}

# start_term_run NAME DELAY SHELL [SHELL_ARG...]: a 10 s run that receives SIGTERM after DELAY
# seconds (1.5: inside the sampling window; 0.3: during setup and probes, where most command
# substitutions run).
start_term_run() {
    local name=$1 delay=$2
    shift 2
    mkdir -p "$work/$name/out"
    (
        t0=$(date +%s%N)
        "$@" "$collector" --duration 10 --no-perf --pid $$ --output "$work/$name/out" \
            >"$work/$name/stdout" 2>"$work/$name/stderr" &
        cpid=$!
        sleep "$delay"
        kill -TERM "$cpid"
        wait "$cpid"
        echo $? >"$work/$name/rc"
        echo $((($(date +%s%N) - t0) / 1000000)) >"$work/$name/elapsed_ms"
    ) &
    pids+=($!)
}

# The runs that test other things than JVMs and perf target this script's own shell
# (--pid $$, not a JVM) and skip perf, so that they stay light.
light=(--no-perf --pid $$)
start_run bb-userland "$work/bin-bb" "$busybox_bin" sh -- --duration 2 --interval 1 "${light[@]}"
for impl in coreutils busybox watchdog; do : >"$work/groups-$impl"; done
start_run hang-coreutils "$work/bin-hang:$PATH" env RCA_TEST_GROUPS="$work/groups-coreutils" \
    "$dash_bin" -- --duration 2 --interval 1 "${light[@]}"
start_run hang-busybox "$work/bin-hang:$work/bin-bb" env RCA_TEST_GROUPS="$work/groups-busybox" \
    "$busybox_bin" sh -- --duration 2 --interval 1 "${light[@]}"
start_run hang-watchdog "$work/bin-hang:$work/bin-notimeout" env RCA_TEST_GROUPS="$work/groups-watchdog" \
    "$bash_bin" -- --duration 2 --interval 1 "${light[@]}"
start_run no-mpstat "$work/bin-nomp" "$dash_bin" -- --duration 2 --interval 1 "${light[@]}"
start_run caps "$PATH" "$dash_bin" -- --duration 1 --max-artifact-bytes 100 --max-bytes 350 "${light[@]}"
start_term_run term-dash 1.5 "$dash_bin"
start_term_run term-bash 1.5 "$bash_bin"
start_term_run term-busybox 1.5 "$busybox_bin" sh
start_term_run term-early-dash 0.3 "$dash_bin"
start_term_run term-early-bash 0.3 "$bash_bin"
start_term_run term-early-busybox 0.3 "$busybox_bin" sh

# Unprivileged run against a fake root (only when we are root and can become nobody): a fake
# proc/modules that is unreadable must yield a `permission denied` note, not an abort.
nobody_run=0
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v su >/dev/null 2>&1; then
    nobody_run=1
    fake=$work/fake-root
    mkdir -p "$fake/proc" "$fake/etc" "$work/nobody-fake/out"
    cp /proc/softirqs /proc/diskstats "$fake/proc/" 2>/dev/null
    echo 'ext4 1000000 1 - Live 0x0000000000000000' >"$fake/proc/modules"
    chmod -R a+rX "$fake"
    chmod 000 "$fake/proc/modules"
    chmod 777 "$work/nobody-fake/out"
    (
        cd / && su -s /bin/sh nobody -c \
            "RCA_ROOT='$fake' '$dash_bin' '$collector' --duration 1 --no-perf --output '$work/nobody-fake/out'" \
            >"$work/nobody-fake/stdout" 2>"$work/nobody-fake/stderr"
        echo $? >"$work/nobody-fake/rc"
    ) &
    pids+=($!)
fi

# --- usage errors (quick, sequential) --------------------------------------------------------
"$dash_bin" "$collector" --bogus >"$work/usage.out" 2>"$work/usage.err"
check "unknown option exits 2" [ $? = 2 ]
check "unknown option prints usage on stderr only" \
    bash -c "grep -q '^Usage:' '$work/usage.err' && [ ! -s '$work/usage.out' ]"
"$dash_bin" "$collector" --duration x >/dev/null 2>&1
check "non-numeric --duration exits 2" [ $? = 2 ]
"$dash_bin" "$collector" --zk localhost >/dev/null 2>&1
check "--zk without a port exits 2" [ $? = 2 ]
"$dash_bin" "$collector" --pid abc >/dev/null 2>&1
check "non-numeric --pid exits 2" [ $? = 2 ]
check "--version prints 0.4.0" bash -c "'$dash_bin' '$collector' --version | grep -q '0\.4\.0'"
"$dash_bin" "$collector" --duration 60 --deadline 60 >/dev/null 2>&1
check "--deadline not longer than --duration exits 2" [ $? = 2 ]
check "--help exits 0 with usage on stdout" \
    bash -c "'$dash_bin' '$collector' --help | grep -q '^Usage:'"

# The light runs finish first, alone. (No check depends on the machine being idle: times are
# only bounded loosely enough to catch a hang, and the collector's budgets grow with the load.)
for p in "${pids[@]}"; do wait "$p"; done
pids=()

# A hung ethtool on six NICs: 60 s of budgets at least (one timeout per NIC), against a
# deadline of 15 s. Started after the light runs.
deadline=15
nics_root=(env RCA_ROOT="$work/fake-nics")
start_run deadline-coreutils "$work/bin-hang-eth:$PATH" "${nics_root[@]}" "$dash_bin" -- \
    --duration 2 --deadline "$deadline" "${light[@]}"
start_run deadline-busybox "$work/bin-hang-eth:$work/bin-bb" "${nics_root[@]}" "$busybox_bin" sh -- \
    --duration 2 --deadline "$deadline" "${light[@]}"
start_run deadline-watchdog "$work/bin-hang-eth:$work/bin-notimeout" "${nics_root[@]}" "$bash_bin" -- \
    --duration 2 --deadline "$deadline" "${light[@]}"

# --- the real environment: a JVM, ZooKeeper, configuration files with secrets ----------------
# Planted secrets: none of these may appear anywhere in a bundle.
secrets=(S3cretJvmPw t0kenValue9 zkS3cretPw Pr0pS3cret XmlS3cretV Yam1T0ken Hd0pS3cret)
alloc_pid=
zk_pid=
zk_port=
sa_dir=
perf_ok=0
if [ -z "$real_why" ]; then
    env_dir=$work/env
    mkdir -p "$env_dir/alloc" "$env_dir/zk/conf" "$env_dir/zk/data" "$env_dir/cfg" "$env_dir/hconf"
    chmod 755 "$env_dir" "$env_dir/cfg" "$env_dir/hconf"
    chmod 777 "$env_dir/alloc"

    # --config directory: a .properties password, a Hadoop-style XML secret, a YAML token.
    printf 'db.url=jdbc:postgresql://db:5432/app\ndb.password=Pr0pS3cret\n' >"$env_dir/cfg/app.properties"
    printf '<configuration>\n  <property>\n    <name>x.secret</name>\n    <value>XmlS3cretV</value>\n  </property>\n</configuration>\n' \
        >"$env_dir/cfg/core-site.xml"
    printf 'server:\n  port: 8080\n  token: Yam1T0ken\n' >"$env_dir/cfg/app.yaml"
    # The JVM's Hadoop conf dir (-Dhadoop.conf.dir): hadoop-site-xml, masked the same way.
    printf '<configuration>\n<property><name>dfs.encrypt.key.password</name><value>Hd0pS3cret</value></property>\n<property><name>dfs.replication</name><value>3</value></property>\n</configuration>\n' \
        >"$env_dir/hconf/hdfs-site.xml"
    chmod 644 "$env_dir"/cfg/* "$env_dir"/hconf/*

    # The JVM: owned by nobody (root must attach as its owner), with a relative GC log path
    # using %p, a secret system property, a secret --flag argument, and an argument that makes
    # it look like a Hadoop JVM (for the *-site.xml discovery).
    if javac -d "$env_dir/alloc" "$here/Alloc.java" 2>"$work/javac.err"; then
        chmod -R a+rX "$env_dir/alloc"
        (
            cd "$env_dir/alloc" && exec su -s /bin/sh nobody -c \
                "exec java -Xmx64m -Dtest.password=S3cretJvmPw -Dhadoop.conf.dir=$env_dir/hconf -Xlog:gc*:file=gc-%p.log -cp $env_dir/alloc Alloc --api-token t0kenValue9 org.apache.hadoop.test.Marker" \
                >"$work/alloc.out" 2>&1
        ) &
        bg_pids+=($!)
    else
        not_ok "javac Alloc.java"
        sed 's/^/    /' "$work/javac.err"
    fi

    # ZooKeeper 3.x from the Debian package, standalone on 127.0.0.1 and a free port, with all
    # four-letter words allowed and a secret in zoo.cfg; GC log in the -Xloggc form.
    for zk_port in $(shuf -i 20000-45000 -n 20); do
        ss -ltnH "sport = :$zk_port" 2>/dev/null | grep -q . || break
    done
    cat >"$env_dir/zk/conf/zoo.cfg" <<EOF
tickTime=2000
dataDir=$env_dir/zk/data
clientPort=$zk_port
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=*
ssl.keyStore.password=zkS3cretPw
EOF
    chmod 644 "$env_dir/zk/conf/zoo.cfg"
    (
        cd "$env_dir/zk" && exec java -Xmx64m -Xloggc:"$env_dir/zk/zk-gc.log" \
            -Dzookeeper.log.dir="$env_dir/zk" -cp "$env_dir/zk/conf:/usr/share/java/zookeeper.jar" \
            org.apache.zookeeper.server.quorum.QuorumPeerMain "$env_dir/zk/conf/zoo.cfg" \
            >"$env_dir/zk/out" 2>&1
    ) &
    bg_pids+=($!)

    # A sysstat daily file of today, written by sadc into a temp folder (RCA_SA_DIRS).
    sa_dir=$env_dir/sa
    mkdir -p "$sa_dir"
    chmod 755 "$sa_dir"
    for sadc in /usr/lib/sysstat/sadc /usr/lib64/sa/sadc /usr/lib/sa/sadc; do
        [ -x "$sadc" ] && break
    done
    "$sadc" 1 2 "$sa_dir/sa$(date +%d)" >/dev/null 2>&1
    chmod 644 "$sa_dir"/* 2>/dev/null

    # Can perf record here? (In many VMs only software events exist; perf then falls back to
    # cpu-clock. If even that fails, the runs must record why.)
    if perf record -F 99 -a -g -N -o "$work/perf-probe.data" -- sleep 0.2 >/dev/null 2>&1 &&
        [ -s "$work/perf-probe.data" ]; then
        perf_ok=1
        echo "note    perf can record on this machine (event: $(perf evlist -i "$work/perf-probe.data" 2>/dev/null | head -n 1))"
    else
        echo "note    perf cannot record on this machine: the runs must record why"
    fi

    # Wait for ZooKeeper (and the JVM) to be up.
    for _ in $(seq 1 60); do
        [ "$(printf ruok | nc -w 2 127.0.0.1 "$zk_port" 2>/dev/null)" = imok ] && break
        sleep 0.5
    done
    check "ZooKeeper answers on 127.0.0.1:$zk_port" \
        [ "$(printf ruok | nc -w 2 127.0.0.1 "$zk_port" 2>/dev/null)" = imok ]
    zk_pid=$(pgrep -f "QuorumPeerMain $env_dir/zk/conf/zoo.cfg" | head -n 1)
    alloc_pid=$(pgrep -u nobody -f "Alloc --api-token" | head -n 1)
    check "the test JVM runs as nobody (pid ${alloc_pid:-none})" [ -n "$alloc_pid" ]
    check "the ZooKeeper JVM runs (pid ${zk_pid:-none})" [ -n "$zk_pid" ]

    real=(--duration 6 --interval 1 --label "suite run" --zk "127.0.0.1:$zk_port" --config "$env_dir/cfg")
    export RCA_SA_DIRS=$sa_dir
    start_run real-bash "$PATH" "$bash_bin" -- "${real[@]}" --keep-perf-data
    start_run real-dash "$PATH" "$dash_bin" -- "${real[@]}" --live-histogram
    # Small streaming caps: GC log tail, thread dumps, perf script are cut while written.
    start_run real-busybox "$PATH" "$busybox_bin" sh -- "${real[@]}" --max-log-bytes 3000 \
        --max-thread-dump-bytes 2000 --max-perf-script-bytes 5000 --config /nonexistent/app.conf
    # As nobody: it owns the test JVM but not ZooKeeper's.
    mkdir -p "$work/real-nobody/out"
    chmod 777 "$work/real-nobody/out"
    (
        t0=$(date +%s%N)
        cd / && su -s /bin/sh nobody -c \
            "RCA_SA_DIRS='$sa_dir' '$dash_bin' '$collector' ${real[*]:0:4} --label nobody --zk 127.0.0.1:$zk_port --config '$env_dir/cfg' --output '$work/real-nobody/out'" \
            >"$work/real-nobody/stdout" 2>"$work/real-nobody/stderr"
        echo $? >"$work/real-nobody/rc"
        echo $((($(date +%s%N) - t0) / 1000000)) >"$work/real-nobody/elapsed_ms"
    ) &
    pids+=($!)
    # Attaching through su when setpriv and runuser are unusable; --pid limits the JVMs.
    start_run su-fallback "$work/bin-nopriv:$PATH" "$dash_bin" -- --duration 2 --no-perf --pid "$alloc_pid"
    unset RCA_SA_DIRS

fi

for p in "${pids[@]}"; do wait "$p"; done

# Last, alone, with RCA_OVERHEAD_BUDGET=1 (bench/collector-overhead.sh): the two 60 s runs that
# measure the overhead, one with both JVMs, one without any (--pid of this shell, not a JVM).
# Perf is off. The checks wait until they are done: fork and exec cost more CPU on a busy
# machine, which would inflate the measurement. They start 10 s apart, so that the busy parts
# (first and last seconds) do not overlap.
overhead=${RCA_OVERHEAD_BUDGET:-0}
if [ -z "$real_why" ] && [ "$overhead" = 1 ]; then
    start_overhead_run overhead-nojvm --duration 60 --no-perf --pid $$
    sleep 10
    start_overhead_run overhead-jvm --duration 60 --no-perf
fi
for p in "${ov_pids[@]}"; do wait "$p"; done

# --- checks ----------------------------------------------------------------------------------
# Manifest rows use TAB; bash `read` collapses empty TAB-separated fields, so split on \037.
US=$'\037'

# manifest_file RUN: RUN's manifest.tsv, read from the tarball once.
manifest_file() {
    local f=$work/$1/manifest.cache
    [ -f "$f" ] || tar -xzOf "$(tarball "$1")" --wildcards '*/manifest.tsv' >"$f" 2>/dev/null
    echo "$f"
}
# manifest RUN: print manifest.tsv of RUN's tarball.
manifest() {
    cat "$(manifest_file "$1")"
}
tarball() {
    tail -n 1 "$work/$1/stdout" 2>/dev/null
}
# meta RUN KEY: print the value of meta KEY.
meta() {
    awk -F '\t' -v k="$2" '$1 == "meta" && $2 == k { print $3 }' "$(manifest_file "$1")"
}
# field RUN PATH N: print field N (1 = record type) of the artifact record for PATH.
field() {
    awk -F '\t' -v p="$2" -v n="$3" '$1 == "artifact" && $2 == p { print $n }' "$(manifest_file "$1")"
}
# extract RUN: unpack RUN's tarball once; prints the top folder.
extract() {
    local tb top
    tb=$(tarball "$1")
    top=$(basename "$tb" .tar.gz)
    if [ ! -d "$work/$1/x/$top" ]; then
        mkdir -p "$work/$1/x"
        tar -xzf "$tb" -C "$work/$1/x" 2>/dev/null
    fi
    echo "$work/$1/x/$top"
}

planned="system/uname.txt system/os-release kernel/lsmod.txt proc/modules
sysstat/iostat-x.txt sysstat/iostat-x.json sysstat/mpstat-P-ALL.txt sysstat/mpstat-P-ALL.json
sysstat/vmstat.txt sysstat/pidstat-udw.txt sysstat/pidstat-t.txt sysstat/sar-n-DEV.txt
sysstat/sar-n-EDEV.txt perf/perf-record.log
proc/softirqs.start proc/diskstats proc/softirqs.end proc/diskstats.end proc/interrupts.start
proc/interrupts.end proc/stat.start proc/stat.end proc/vmstat.start proc/vmstat.end
proc/net/dev.start proc/net/dev.end proc/net/snmp.start proc/net/snmp.end
net/netstat-s.start net/netstat-s.end kernel/cmdline kernel/tainted kernel/modinfo-tainted.txt
kernel/dmesg.txt kernel/journalctl-k.txt kernel/sysctl-a.txt cpu/lscpu.txt cpu/numactl-H.txt cpu/cpuinfo-head.txt
system/detect-virt.txt system/dmidecode-t-system.txt system/lspci-k.txt mem/meminfo
mem/free-m.txt mem/swaps mem/swapon-show.txt mem/thp.txt mem/vmware-balloon.txt
net/irq-affinity.tsv time/chronyc-tracking.txt time/chronyc-sources.txt time/ntpq-pn.txt
time/timedatectl.txt time/vmware-timesync.txt system/ps.txt system/top.txt system/ulimit-a.txt
perf/perf-report-comm-dso-symbol.txt perf/perf-report-dso.txt perf/perf-script.txt
redaction-log.tsv collector.log"

meta_keys="collector_version hostname user uid kernel machine started ended duration interval
options complete orig_lc_all orig_lang orig_tz timeout_impl sysstat_version label pids jvms perf
perf_event_paranoid kptr_restrict live_histogram keep_perf_data zk max_bytes max_artifact_bytes
max_log_bytes max_thread_dump_bytes max_perf_script_bytes secrets_masked deadline incomplete
cpu_window collector_cpu_seconds collector_cpu_percent samplers_cpu_seconds perf_record_cpu_seconds
records"

# The kinds documented in the header's table ("kind -> what it is"), to check the manifests.
documented_kinds=$(sed -n '/^# Kinds of this version/,/^# The sampling window/p' "$collector" |
    sed -n 's/^#     \([a-z][a-zA-Z0-9-]*\)\( .*\)\{0,1\}$/\1/p; s/^#     \(ethtool-i\), .*/\1/p' |
    sort -u)
documented_kinds="$documented_kinds ethtool-l ethtool-k ethtool-g ethtool-c ethtool-S collector-log
zk-mntr zk-wchs zk-conf zk-srvr jcmd-vm-command-line jcmd-vm-system-properties"

# check_bundle RUN EXPECTED_COMPLETE: generic checks of one run's tarball and manifest.
check_bundle() {
    local run=$1 want_complete=$2 tb top list man bad line rec path p k size dir
    tb=$(tarball "$run")
    case $tb in
        "$work/$run/out/"rca-*-[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z.tar.gz)
            ok "$run: last stdout line is the tarball path ($(basename "$tb"))" ;;
        *)
            not_ok "$run: last stdout line is a tarball path (got '$tb')"
            sed 's/^/    /' "$work/$run/stderr" | tail -n 15
            return
            ;;
    esac
    check "$run: tarball name rca-<host>-<yyyymmddThhmmssZ>.tar.gz with a safe host" \
        bash -c "[[ \$(basename '$tb') =~ ^rca-[A-Za-z0-9._-]+-[0-9]{8}T[0-9]{6}Z\\.tar\\.gz\$ ]]"
    check "$run: tarball exists" [ -f "$tb" ]
    top=$(basename "$tb" .tar.gz)
    dir=$(extract "$run")
    list=$(tar -tzf "$tb" 2>/dev/null)
    bad=$(printf '%s\n' "$list" | grep -v "^$top/" | head -n 3)
    check "$run: every entry is under $top/" [ -z "$bad" ]
    check "$run: lists $top/manifest.tsv" grep -qx "$top/manifest.tsv" <<<"$list"
    check "$run: no temp tarball left in the output dir" \
        bash -c "[ -z \"\$(ls -A '$work/$run/out' | grep -v '^rca-.*\\.tar\\.gz\$')\" ]"
    man=$(manifest "$run")
    check "$run: manifest starts with '# rca-manifest 1'" \
        [ "$(head -n 1 <<<"$man")" = "# rca-manifest 1" ]
    bad=$(tail -n +2 <<<"$man" | awk -F '\t' '
        !(($1 == "meta" && NF == 3) || ($1 == "artifact" && NF == 11)) { print NR": "$0 }')
    check "$run: every record is meta (3 fields) or artifact (11 fields)" [ -z "$bad" ]
    [ -z "$bad" ] || printf '    %s\n' "$bad"
    bad=
    for k in $meta_keys; do
        grep -q "^meta$(printf '\t')$k$(printf '\t')" <<<"$man" || bad="$bad $k"
    done
    check "$run: all meta keys present" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    missing:$bad"
    check "$run: meta keys in the documented order" \
        [ "$(awk -F '\t' '$1 == "meta" { printf "%s ", $2 }' <<<"$man")" = "$(tr -s ' \n' '  ' <<<"$meta_keys")" ]
    check "$run: meta complete = $want_complete" [ "$(meta "$run" complete)" = "$want_complete" ]
    if [ "$want_complete" = 1 ]; then
        check "$run: meta incomplete is empty" [ -z "$(meta "$run" incomplete)" ]
    else
        check "$run: meta incomplete says why" [ -n "$(meta "$run" incomplete)" ]
    fi
    check "$run: meta records = the number of artifact records" \
        [ "$(meta "$run" records)" = "$(grep -c '^artifact' <<<"$man")" ]
    bad=$(comm -13 <(awk -F '\t' '$1 == "artifact" { print "'"$top"'/" $2 }' <<<"$man" | sort) \
        <(grep -v '/$' <<<"$list" | grep -vx "$top/manifest.tsv" | sort) | head -n 3)
    check "$run: every file in the tarball has a record" [ -z "$bad" ]
    [ -z "$bad" ] || printf '    %s\n' "$bad"
    check "$run: meta started/ended are epoch seconds, ended >= started" bash -c "
        s='$(meta "$run" started)' e='$(meta "$run" ended)'
        [[ \$s =~ ^[0-9]+(\\.[0-9]+)?\$ && \$e =~ ^[0-9]+(\\.[0-9]+)?\$ ]] &&
        awk -v s=\"\$s\" -v e=\"\$e\" 'BEGIN { exit !(e + 0 >= s + 0) }'"
    bad=
    for p in $planned; do
        [ -n "$(field "$run" "$p" 2)" ] || bad="$bad $p"
    done
    check "$run: a record for every planned artifact" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    missing:$bad"
    bad=$(awk -F '\t' '$1 == "artifact" { print $2 }' <<<"$man" | sort | uniq -d | head -n 3)
    check "$run: no path recorded twice" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    $bad"
    bad=
    while read -r k; do
        grep -qx -- "$k" <<<"$(tr ' ' '\n' <<<"$documented_kinds")" || bad="$bad $k"
    done < <(awk -F '\t' '$1 == "artifact" { print $3 }' <<<"$man" | sort -u)
    check "$run: every kind is in the header's kind table" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    undocumented:$bad"
    # Per-record field checks.
    bad=
    while IFS= read -r line; do
        IFS=$US read -r -a rec <<<"$(tr '\t' "$US" <<<"$line")${US}END"
        path=${rec[1]}
        [[ ${rec[3]} =~ ^[0-9]*$ ]] || bad="$bad $path:exit='${rec[3]}'"
        [[ ${rec[4]} =~ ^[01]$ ]] || bad="$bad $path:timed_out='${rec[4]}'"
        [[ ${rec[5]} =~ ^([0-9]+(\.[0-9]+)?)?$ ]] || bad="$bad $path:start='${rec[5]}'"
        [[ ${rec[6]} =~ ^([0-9]+(\.[0-9]+)?)?$ ]] || bad="$bad $path:end='${rec[6]}'"
        [[ ${rec[7]} =~ ^[0-9]+$ ]] || bad="$bad $path:bytes='${rec[7]}'"
        [[ ${rec[8]} =~ ^[01]$ ]] || bad="$bad $path:truncated='${rec[8]}'"
        case $path in /* | ../* | */../* | */./*) bad="$bad $path:unsafe-path" ;; esac
        # A command that failed, timed out or never ran says why.
        if [ "$path" != collector.log ] &&
            { [ "${rec[3]}" != 0 ] || [ "${rec[4]}" = 1 ]; } && [ -z "${rec[9]}" ]; then
            bad="$bad $path:no-note(exit='${rec[3]}')"
        fi
        case ${rec[9]} in
            "not found"* | skipped*) ;; # no output file expected
            *)
                if ! grep -qxF "$top/$path" <<<"$list"; then
                    bad="$bad $path:absent(note='${rec[9]}')"
                elif [ "$path" != collector.log ]; then
                    # The stored size must match the record.
                    size=$(wc -c <"$dir/$path")
                    [ "$size" = "${rec[7]}" ] || bad="$bad $path:bytes=${rec[7]},actual=$size"
                fi
                ;;
        esac
    done < <(grep '^artifact' <<<"$man")
    check "$run: fields well-formed; files present; every failed or skipped record has a note" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    $bad"
    bad=$(grep -v '^rca-collector: ' "$work/$run/stderr" | head -n 3)
    check "$run: stderr holds only collector messages (no shell errors)" [ -z "$bad" ]
    [ -z "$bad" ] || printf '    %s\n' "$bad"
}

# check_iostat RUN: iostat text has one Device header per report.
check_iostat() {
    local run=$1 tb top n want d i
    tb=$(tarball "$run")
    top=$(basename "$tb" .tar.gz)
    n=$(tar -xzOf "$tb" "$top/sysstat/iostat-x.txt" 2>/dev/null | grep -c '^Device')
    d=$(meta "$run" duration)
    i=$(meta "$run" interval)
    # One since-boot report plus one per interval of the window.
    want=$((${d:-0} / ${i:-1} + 1))
    check "$run: iostat-x.txt has $want 'Device' header lines (got $n)" [ "$n" = "$want" ]
    check "$run: iostat-x.txt exit 0, not timed out" \
        [ "$(field "$run" sysstat/iostat-x.txt 4)/$(field "$run" sysstat/iostat-x.txt 5)" = 0/0 ]
    check "$run: mpstat-P-ALL.json recorded exit 0" [ "$(field "$run" sysstat/mpstat-P-ALL.json 4)" = 0 ]
}

# check_cpu RUN: the collector's own CPU over its window (meta cpu_window, collector_cpu_seconds,
# collector_cpu_percent, samplers_cpu_seconds, perf_record_cpu_seconds) is written and plausible:
# numbers to 1/100, none negative; the window at least the run's duration and shorter than its
# wall time; the collector's and the samplers' seconds within it (each ran on one CPU at a
# time); the percent that of the seconds as written over the window as written.
check_cpu() {
    local run=$1 w c p s f d
    w=$(meta "$run" cpu_window)
    c=$(meta "$run" collector_cpu_seconds)
    p=$(meta "$run" collector_cpu_percent)
    s=$(meta "$run" samplers_cpu_seconds)
    f=$(meta "$run" perf_record_cpu_seconds)
    d=$(meta "$run" duration)
    check "$run: collector CPU fields are numbers to 1/100 s (window '$w', collector '$c' s = '$p' %, samplers '$s' s, perf record '$f' s)" \
        bash -c "for v in '$w' '$c' '$p' '$s'; do [[ \$v =~ ^[0-9]+\.[0-9][0-9]\$ ]] || exit 1; done
            [[ -z '$f' || '$f' =~ ^[0-9]+\.[0-9][0-9]\$ ]]"
    # Compared in hundredths, as written (leading zeros dropped so they do not read as octal).
    local wc cc pc sc
    wc=$((10#${w/./})) cc=$((10#${c/./})) pc=$((10#${p/./})) sc=$((10#${s/./}))
    check "$run: cpu_window ($w s) spans the duration ($d s) and not the whole run ($(elapsed_s "$run") s + 1)" \
        bash -c "[ '$wc' -ge $((${d:-0} * 100)) ] && [ '$wc' -le $(($(elapsed_s "$run") * 100 + 100)) ]"
    check "$run: collector ($c s) and samplers ($s s) CPU within the window ($w s)" \
        bash -c "[ '$cc' -le '$wc' ] && [ '$sc' -le '$wc' ]"
    check "$run: collector_cpu_percent ($p) = collector_cpu_seconds / cpu_window x 100 ($cc * 10000 / $wc = $((cc * 10000 / wc)))" \
        [ "$pc" = $((cc * 10000 / wc)) ]
}

elapsed_s() {
    echo $(($(cat "$work/$1/elapsed_ms") / 1000))
}

# check_rc RUN WANT: RUN's exit status; on failure, the last lines of its stderr say why.
check_rc() {
    local rc
    rc=$(cat "$work/$1/rc" 2>/dev/null)
    if [ "$rc" = "$2" ]; then
        ok "$1: exit status $2"
    else
        not_ok "$1: exit status $2 (got ${rc:-none})"
        tail -n 8 "$work/$1/stderr" 2>/dev/null | sed 's/^/    /'
    fi
}

# check_groups RUN FILE: nothing of the hung commands' process groups (FILE: one line per start,
# "PID PGID CHILD CHILD") survives the collector, and each had a group of its own.
check_groups() {
    local run=$1 pid pg c1 c2 p st n=0 own left="" alive=""
    own=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); print f[3] }' /proc/$$/stat)
    while read -r pid pg c1 c2; do
        n=$((n + 1))
        [ "$pg" != "$own" ] || left="$left $pid:pgid=$pg(the suite's own)"
        # Any process still in that group (field 5 of /proc/PID/stat), either child among them.
        # A zombie is dead, only not yet reaped (by init, which some containers' init does late).
        alive=$(cat /proc/[0-9]*/stat 2>/dev/null | awk -v g="$pg" '
            { s = $0; sub(/.*\) /, "", s); split(s, f, " ") }
            f[3] == g && f[1] != "Z" { printf "%s(%s) ", $1, f[1] }')
        [ -z "$alive" ] || left="$left pgid $pg: $alive"
        for p in "$c1" "$c2"; do
            st=$(awk '{ s = $0; sub(/.*\) /, "", s); print substr(s, 1, 1) }' "/proc/$p/stat" 2>/dev/null)
            [ -z "$st" ] || [ "$st" = Z ] || left="$left child $p alive ($st)"
        done
    done <"$2"
    check "$run: the hung iostat started with its children ($n times)" [ "$n" -ge 1 ]
    check "$run: none of their process groups outlived the collector, each its own group" [ -z "$left" ]
    [ -z "$left" ] || echo "    $left"
}

# check_no_secrets RUN: none of the planted values anywhere: extracted files, tarball bytes.
check_no_secrets() {
    local run=$1 dir s hits=
    dir=$(extract "$run")
    for s in "${secrets[@]}"; do
        if grep -rqF -- "$s" "$dir" || gzip -dc "$(tarball "$run")" | grep -aqF -- "$s"; then
            hits="$hits $s"
        fi
    done
    check "$run: no planted secret value anywhere in the bundle (files and tarball bytes)" [ -z "$hits" ]
    [ -z "$hits" ] || echo "    found:$hits"
}

# --- the real runs ---------------------------------------------------------------------------
nics=
for d in /sys/class/net/*; do
    [ -e "$d/device" ] && [ "${d##*/}" != lo ] && nics="$nics ${d##*/}"
done
snap="proc/softirqs proc/interrupts proc/stat proc/vmstat proc/net/dev proc/net/snmp
proc/net/softnet_stat net/netstat-s net/nstat-asz net/ss-tanp proc/loadavg"
# PSI files exist on Linux >= 4.20 unless booted with psi=0.
if [ -r /proc/pressure/cpu ]; then
    snap="$snap proc/pressure/cpu proc/pressure/memory proc/pressure/io"
fi
per_jvm="status limits cmdline.txt cgroup.tsv.start cgroup.tsv.end java-version.txt vm-version.txt vm-flags.txt
vm-command-line.txt vm-system-properties.txt jstat-gcutil.txt thread-dump.1.txt
thread-dump.2.txt gc-heap-info.1.txt gc-heap-info.2.txt class-histogram.txt gc.log threads.tsv"

# expected_root: the artifacts a root run on this machine must have collected with exit 0 and
# a non-empty output. (What this VM cannot provide is left out on purpose and, like every
# record, must carry a note when it fails: /proc/modules and so lsmod/modinfo (no module
# support), dmidecode (no DMI), chronyc/ntpq/timedatectl (no daemons, no systemd), VMware
# tools; swapon --show prints nothing without swap.)
expected_root() {
    local p n f t
    # Always there on a Linux with procps, util-linux and iproute2 (and the files of /proc).
    echo system/uname.txt system/os-release kernel/cmdline kernel/tainted kernel/dmesg.txt \
        kernel/sysctl-a.txt cpu/lscpu.txt cpu/cpuinfo-head.txt mem/meminfo mem/free-m.txt \
        mem/swaps mem/thp.txt net/ip-s-link.txt net/ip-addr.txt net/irq-affinity.tsv \
        net/ss-tulpn.txt system/ps.txt system/top.txt system/ulimit-a.txt proc/diskstats \
        proc/diskstats.end sysstat/iostat-x.txt sysstat/iostat-x.json sysstat/mpstat-P-ALL.txt \
        sysstat/mpstat-P-ALL.json sysstat/vmstat.txt sysstat/pidstat-udw.txt sysstat/pidstat-t.txt \
        sysstat/sar-n-DEV.txt sysstat/sar-n-EDEV.txt sysstat/sar-q.txt \
        "sysstat/sa/sa$(date +%d).json" \
        jvm/jps-lv.txt redaction-log.tsv \
        "configs$env_dir/cfg/app.properties" "configs$env_dir/cfg/core-site.xml" \
        "configs$env_dir/cfg/app.yaml" "configs$env_dir/zk/conf/zoo.cfg" \
        "configs$env_dir/hconf/hdfs-site.xml"
    # Packages that a minimal system may lack (.ci/run installs them).
    for t in numactl:cpu/numactl-H.txt systemd-detect-virt:system/detect-virt.txt \
        lspci:system/lspci-k.txt; do
        command -v "${t%%:*}" >/dev/null 2>&1 && echo "${t#*:}"
    done
    for p in $snap; do
        case $p in net/netstat-s) command -v netstat >/dev/null 2>&1 || continue ;; esac
        echo "$p.start $p.end"
    done
    if command -v ethtool >/dev/null 2>&1; then
        for n in $nics; do
            for f in i l k g c; do echo "net/ethtool/$n/ethtool-$f.txt"; done
            echo "net/ethtool/$n/ethtool-S.start net/ethtool/$n/ethtool-S.end"
        done
    fi
    for p in "$alloc_pid" "$zk_pid"; do
        for f in $per_jvm; do echo "jvm/$p/$f"; done
    done
    for f in mntr wchs conf srvr; do echo "zk/127.0.0.1_$zk_port/$f.txt"; done
    if [ "$perf_ok" = 1 ]; then
        echo perf/perf-record.log perf/perf-report-comm-dso-symbol.txt perf/perf-report-dso.txt \
            perf/perf-script.txt
    fi
}

# check_expected RUN LIST: each path of LIST has exit 0 and bytes > 0.
check_expected() {
    local run=$1 man p bad="" n=0
    man=$(manifest "$run")
    for p in $2; do
        n=$((n + 1))
        awk -F '\t' -v p="$p" '$1 == "artifact" && $2 == p && $4 == "0" && $8 > 0 { f = 1 } END { exit !f }' \
            <<<"$man" || bad="$bad $p($(awk -F '\t' -v p="$p" '$1 == "artifact" && $2 == p { print "exit=" $4 ",bytes=" $8 ",note=" $10 }' <<<"$man"))"
    done
    check "$run: all $n expected artifacts present, non-empty, exit 0" [ -z "$bad" ]
    # shellcheck disable=SC2086 # one line per missing artifact
    [ -z "$bad" ] || printf '    %s\n' $bad
}

# check_real RUN: what every real run (root or not) must show.
check_real() {
    local run=$1 dir
    check_rc "$run" 0
    check_bundle "$run" 1
    check_iostat "$run"
    check_cpu "$run"
    check_no_secrets "$run"
    dir=$(extract "$run")
    check "$run: meta jvms lists the test JVM and ZooKeeper" \
        bash -c "[[ ' $(meta "$run" jvms) ' == *' $alloc_pid '* && ' $(meta "$run" jvms) ' == *' $zk_pid '* ]]"
    check "$run: meta zk = 127.0.0.1:$zk_port" [ "$(meta "$run" zk)" = "127.0.0.1:$zk_port" ]
    check "$run: meta secrets_masked > 0" [ "$(meta "$run" secrets_masked)" -gt 0 ]
    check "$run: the test JVM's own artifacts exit 0 (java-version, jcmd, jstat, thread dumps, heap info)" bash -c "
        for f in java-version.txt vm-version.txt vm-flags.txt vm-command-line.txt vm-system-properties.txt \
            jstat-gcutil.txt thread-dump.1.txt thread-dump.2.txt gc-heap-info.1.txt gc-heap-info.2.txt \
            class-histogram.txt gc.log threads.tsv; do
            [ \"\$(awk -F '\t' -v p=jvm/$alloc_pid/\$f '\$1 == \"artifact\" && \$2 == p { print \$4 }' <<<\"\$1\")\" = 0 ] || exit 1
        done" _ "$(manifest "$run")"
    check "$run: java-version says which JVM (openjdk/java version)" \
        grep -qiE 'openjdk version|java version' "$dir/jvm/$alloc_pid/java-version.txt"
    check "$run: masked values marked in the JVM's system properties (test.password=****)" \
        grep -qx 'test.password=\*\*\*\*' "$dir/jvm/$alloc_pid/vm-system-properties.txt"
    check "$run: masking noted in the record of vm-command-line.txt" \
        grep -q '^secrets masked: ' <<<"$(field "$run" "jvm/$alloc_pid/vm-command-line.txt" 10)"
    check "$run: XML secret masked as <value>****</value> in core-site.xml" \
        grep -q '<value>\*\*\*\*</value>' "$dir/configs$env_dir/cfg/core-site.xml"
    check "$run: non-secret values kept (db.url, dfs.replication)" bash -c \
        "grep -q 'db.url=jdbc:postgresql' '$dir/configs$env_dir/cfg/app.properties' &&
         grep -q '<value>3</value>' '$dir/configs$env_dir/hconf/hdfs-site.xml'"
    check "$run: redaction log names file and key (db.password, x.secret, token, ssl.keyStore.password)" bash -c "
        f='$dir/redaction-log.tsv'
        grep -qx '$env_dir/cfg/app.properties$(printf '\t')db.password' \"\$f\" &&
        grep -qx '$env_dir/cfg/core-site.xml$(printf '\t')x.secret' \"\$f\" &&
        grep -qx '$env_dir/cfg/app.yaml$(printf '\t')token' \"\$f\" &&
        grep -qx '$env_dir/zk/conf/zoo.cfg$(printf '\t')ssl.keyStore.password' \"\$f\""
    check "$run: hdfs-site.xml from -Dhadoop.conf.dir has kind hadoop-site-xml" \
        [ "$(field "$run" "configs$env_dir/hconf/hdfs-site.xml" 3)" = hadoop-site-xml ]
    check "$run: zoo.cfg from ZooKeeper's arguments has kind zoo-cfg" \
        [ "$(field "$run" "configs$env_dir/zk/conf/zoo.cfg" 3)" = zoo-cfg ]
    check "$run: ZooKeeper mntr has zk_znode_count, wchs a watch summary, srvr a Mode" bash -c "
        d='$dir/zk/127.0.0.1_$zk_port'
        grep -q '^zk_znode_count' \"\$d/mntr.txt\" && grep -q 'watching' \"\$d/wchs.txt\" &&
        grep -q '^Mode:' \"\$d/srvr.txt\" && grep -q '^clientPort=$zk_port' \"\$d/conf.txt\""
    check "$run: thread names counted (XNIO-1 task-1 in threads.tsv)" \
        grep -qx $'1\tXNIO-1 task-1' "$dir/jvm/$alloc_pid/threads.tsv"
    if [ "$(field "$run" "jvm/$alloc_pid/thread-dump.2.txt" 9)" = 0 ]; then
        check "$run: thread dump shows the XNIO threads" \
            grep -q '"XNIO-1 task-1"' "$dir/jvm/$alloc_pid/thread-dump.2.txt"
    fi
    check "$run: both GC logs collected (-Xlog file=gc-%p.log relative, -Xloggc:)" bash -c "
        grep -q 'Using ' '$dir/jvm/$alloc_pid/gc.log' && [ -s '$dir/jvm/$zk_pid/gc.log' ]"
    check "$run: jstat-gcutil has a header and >= 6 samples" \
        [ "$(grep -c . "$dir/jvm/$alloc_pid/jstat-gcutil.txt")" -ge 7 ]
    check "$run: cgroup.tsv.start and .end have membership lines" bash -c "
        grep -q '^cgroup' '$dir/jvm/$alloc_pid/cgroup.tsv.start' &&
        grep -q '^cgroup' '$dir/jvm/$alloc_pid/cgroup.tsv.end'"
    # shellcheck disable=SC2016 # an awk program
    check "$run: start/end snapshots span the window (>= 5.5 s apart)" awk -F '\t' '
        $1 == "artifact" && $2 == "proc/softirqs.start" { s = $6 }
        $1 == "artifact" && $2 == "proc/softirqs.end" { e = $6 }
        END { exit !(e - s >= 5.5) }' <<<"$(manifest "$run")"
}

if [ -z "$real_why" ]; then
    for run in real-bash real-dash real-busybox; do
        check_real "$run"
        if [ "$run" = real-busybox ]; then
            # Cut at a cap while written, a tool may die of SIGPIPE (exit 141) or report the
            # broken pipe; those records are checked for their truncation below instead.
            check_expected "$run" "$(expected_root | tr ' ' '\n' | grep -v -e perf-script -e thread-dump)"
        else
            check_expected "$run" "$(expected_root)"
        fi
        check "$run: root attaches to the nobody JVM as its owner (setpriv --reuid=65534)" \
            grep -q '^setpriv --reuid=65534 ' <<<"$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 11)"
        if [ "$perf_ok" = 1 ]; then
            check "$run: meta perf = recorded" [ "$(meta "$run" perf)" = recorded ]
            check "$run: perf report names the samples' event" \
                grep -q '^# Samples: ' "$(extract "$run")/perf/perf-report-dso.txt"
            # The analyzer reads the real profile: perf script parsed into a profile with a
            # flame graph in the HTML report (RCA_BIN is set by the Rust test driver).
            if [ "$run" = real-bash ] && [ -n "${RCA_BIN:-}" ]; then
                "$RCA_BIN" analyze "$(tarball "$run")" -o "$work/$run/report.html" \
                    --json "$work/$run/report.json" >/dev/null 2>&1
                check "$run: rca parses the real perf script into a profile" \
                    grep -q '"source_kind": *"perf script"' "$work/$run/report.json"
                check "$run: rca's report holds a flame graph of it" \
                    grep -q '<div class="flame"><svg' "$work/$run/report.html"
            fi
        else
            check "$run: perf-record carries the reason it failed" \
                bash -c "[ -n \"$(field "$run" perf/perf-record.log 10)\" ]"
            check "$run: perf reports skipped with that reason" \
                grep -q '^skipped: perf record failed' <<<"$(field "$run" perf/perf-script.txt 10)"
        fi
    done
    check "real-bash: --keep-perf-data stores perf/perf.data (kind perf-data)" \
        [ "$(field real-bash perf/perf.data 3)" = perf-data ] || [ "$perf_ok" = 0 ]
    check "real-dash: no perf.data without --keep-perf-data" [ -z "$(field real-dash perf/perf.data 2)" ]
    check "real-dash: --live-histogram asks for live objects (no -all)" bash -c "
        a='$(field real-dash "jvm/$alloc_pid/class-histogram.txt" 11)'
        [[ \$a == *'GC.class_histogram' && \$a != *-all* ]]"
    check "real-bash: default histogram is of all objects (-all, no full GC)" \
        grep -q 'GC.class_histogram -all$' <<<"$(field real-bash "jvm/$alloc_pid/class-histogram.txt" 11)"
    check "real-bash: meta label = 'suite run'" [ "$(meta real-bash label)" = "suite run" ]
    run="real-busybox"
    check "$run: gc.log cut to --max-log-bytes 3000 (truncated 1, note 'log cap')" bash -c "
        [ '$(field "$run" "jvm/$alloc_pid/gc.log" 8)/$(field "$run" "jvm/$alloc_pid/gc.log" 9)' = 3000/1 ] &&
        [[ '$(field "$run" "jvm/$alloc_pid/gc.log" 10)' == *'truncated at 3000 bytes (log cap)'* ]]"
    check "$run: thread dump cut to 2000 bytes while written (note 'thread dump cap')" bash -c "
        [ '$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 8)/$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 9)' = 2000/1 ] &&
        [[ '$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 10)' == *'(thread dump cap)'* ]]"
    if [ "$perf_ok" = 1 ]; then
        check "$run: perf script cut to 5000 bytes (note 'perf script cap')" bash -c "
            [ '$(field "$run" perf/perf-script.txt 8)/$(field "$run" perf/perf-script.txt 9)' = 5000/1 ] &&
            [[ '$(field "$run" perf/perf-script.txt 10)' == *'(perf script cap)'* ]]"
    fi
    check "$run: a missing --config path is recorded 'not found'" \
        grep -q '^not found: /nonexistent/app.conf' <<<"$(field "$run" configs/nonexistent/app.conf 10)"
    for run in real-bash real-dash real-busybox real-nobody; do
        echo "measure $run: tarball $(wc -c <"$(tarball "$run")") bytes, $(grep -c '^artifact' "$(manifest_file "$run")") records, $(elapsed_s "$run") s"
    done

    run="real-nobody"
    check_real "$run"
    check "$run: meta uid is 65534" [ "$(meta "$run" uid)" = 65534 ]
    check "$run: attaching to root's ZooKeeper JVM fails with the tool's reason" bash -c "
        [ \"\$(awk -F '\t' -v p=jvm/$zk_pid/vm-version.txt '\$1 == \"artifact\" && \$2 == p { print \$4 }' <<<\"\$1\")\" != 0 ] &&
        awk -F '\t' -v p=jvm/$zk_pid/vm-version.txt '\$1 == \"artifact\" && \$2 == p { print \$10 }' <<<\"\$1\" |
            grep -qiE 'socket file|not permitted|not secure|Unable to open'" _ "$(manifest "$run")"
    check "$run: ZooKeeper's other attaching artifacts say the attach failed" \
        grep -q '^skipped: attach to JVM ' <<<"$(field "$run" "jvm/$zk_pid/thread-dump.2.txt" 10)"
    check "$run: perf skipped with the paranoid setting as reason" \
        grep -q '^skipped: not root and kernel.perf_event_paranoid' <<<"$(field "$run" perf/perf-record.log 10)"
    check "$run: meta perf says why" grep -q '^skipped: ' <<<"$(meta "$run" perf)"

    run=su-fallback
    check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
    check_bundle "$run" 1
    check "$run: --pid limits the JVMs to the test JVM" [ "$(meta "$run" jvms)" = "$alloc_pid" ]
    check "$run: attached through su -s /bin/sh nobody" \
        grep -q '^su -s /bin/sh nobody -c ' <<<"$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 11)"
    check "$run: thread dump through su exit 0, non-empty" bash -c "
        [ '$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 4)' = 0 ] &&
        [ '$(field "$run" "jvm/$alloc_pid/thread-dump.1.txt" 8)' -gt 0 ]"
    check "$run: no ZooKeeper artifacts (not a --pid)" [ -z "$(field "$run" "jvm/$zk_pid/status" 2)" ]

fi

# --- the other runs --------------------------------------------------------------------------
run=bb-userland
check_rc "$run" 0
check_bundle "$run" 1
check_iostat "$run"
check "bb-userland: meta started is integer (BusyBox date has no %N)" \
    bash -c "[[ '$(meta bb-userland started)' =~ ^[0-9]+\$ ]]"
check "bb-userland: timeout_impl = busybox" [ "$(meta bb-userland timeout_impl)" = busybox ]
check_cpu bb-userland
check "bb-userland: BusyBox ps falls back to ps -o (exit 0)" [ "$(field bb-userland system/ps-o.txt 4)" = 0 ]
if [ -z "$real_why" ]; then
    check "real-dash: meta started has nanoseconds (date +%s.%N)" \
        bash -c "[[ '$(meta real-dash started)' =~ ^[0-9]+\\.[0-9]{9}\$ ]]"
    check "real-dash: timeout_impl = coreutils" [ "$(meta real-dash timeout_impl)" = coreutils ]
    check "real-dash: sysstat_version recorded" bash -c "[[ '$(meta real-dash sysstat_version)' =~ ^[0-9]+\\. ]]"
    check "real-dash: meta orig_lang is the caller's LANG" [ "$(meta real-dash orig_lang)" = "${LANG-}" ]
fi

# Hung iostat (it prints a line, then hangs with two children, one deaf to TERM): the run
# finishes (a generous bound that only catches a hang: budgets grow with the load) and records
# the timeout; the line printed before it is kept; its budget is the window plus a margin;
# nothing of the command's process group outlives the collector.
hang_bound=300
for impl in coreutils busybox watchdog; do
    run=hang-$impl
    check_rc "$run" 0
    check_bundle "$run" 1
    check "$run: timeout_impl = $impl" [ "$(meta "$run" timeout_impl)" = "$impl" ]
    check "$run: finished in $(elapsed_s "$run")s <= ${hang_bound}s" [ "$(elapsed_s "$run")" -le "$hang_bound" ]
    check "$run: iostat-x.txt exit 124, timed_out 1" \
        [ "$(field "$run" sysstat/iostat-x.txt 4)/$(field "$run" sysstat/iostat-x.txt 5)" = 124/1 ]
    note=$(field "$run" sysstat/iostat-x.txt 10)
    budget=$(sed -n 's/^timed out after \([0-9]*\)s.*/\1/p' <<<"$note")
    check "$run: iostat-x.txt note says timed out and the output kept ('$note')" \
        grep -q '^timed out after [0-9]*s; output cut there, the 13 bytes written before kept$' <<<"$note"
    check "$run: iostat-x.txt keeps the line printed before the timeout (13 bytes)" bash -c "
        [ '$(field "$run" sysstat/iostat-x.txt 8)' = 13 ] &&
        grep -qx 'partial line' '$(extract "$run")/sysstat/iostat-x.txt'"
    # The window (2 s) plus at least interval + 5 s: a sampler's budget is never the bare window.
    check "$run: the sampler's budget (${budget:-none} s) is the window plus a margin (>= 2 + 6 s)" \
        [ "${budget:-0}" -ge 8 ]
    # shellcheck disable=SC2016 # an awk program
    ran=$(awk -F '\t' '$1 == "artifact" && $2 == "sysstat/iostat-x.txt" { printf "%.2f", $7 - $6 }' \
        "$(manifest_file "$run")")
    echo "measure $run: iostat budget ${budget:-?} s, ran ${ran:-?} s (TERM at the budget, KILL of the TERM-deaf child 5 s later); $(grep -m 1 'budgets x' "$work/$run/stderr" | sed 's/^rca-collector: //')"
    check "$run: iostat ran at least its budget and was then stopped (${ran:-?} s, budget ${budget:-?} s)" \
        awk -v r="${ran:-0}" -v b="${budget:-0}" 'BEGIN { exit !(r >= b - 1 && r <= b + 120) }'
    check "$run: mpstat still collected (exit 0)" \
        [ "$(field "$run" sysstat/mpstat-P-ALL.txt 4)" = 0 ]
    check_groups "$run" "$work/groups-$impl"
done

# Hung ethtool against the deadline: the run ends within the deadline plus a margin (the 5 s
# between TERM and KILL, the tarball, a loaded machine), with status 3, a tarball marked
# incomplete and the steps left recorded as skipped.
for impl in coreutils busybox watchdog; do
    run=deadline-$impl
    check_rc "$run" 3
    check_bundle "$run" 0
    check "$run: timeout_impl = $impl" [ "$(meta "$run" timeout_impl)" = "$impl" ]
    # The deadline plus the 5 s between TERM and KILL plus writing the tarball, loosely: without
    # the deadline the run would take 60 s or more.
    check "$run: finished in $(elapsed_s "$run")s <= $((deadline + 40))s (deadline ${deadline}s)" \
        [ "$(elapsed_s "$run")" -le $((deadline + 40)) ]
    check "$run: meta deadline = $deadline, meta incomplete names it" bash -c "
        [ '$(meta "$run" deadline)' = $deadline ] &&
        [[ '$(meta "$run" incomplete)' == 'deadline of $deadline s reached: '* ]]"
    # Each NIC's first query (`ethtool -S` at the window's start) timed out on its budget (10 s
    # times the load factor) or on one cut to the time left, or was skipped once the deadline had
    # passed (which NIC gets how far depends on the load); after a timeout of its own, a NIC's
    # other queries are skipped.
    bad=
    for n in 0 1 2 3 4 5; do
        note=$(field "$run" "net/ethtool/eth$n/ethtool-S.start" 10)
        case $note in
            "timed out after "[1-9]*"s") ;;
            "timed out after "[1-9]*"s, the time left before the deadline") ;;
            "skipped: deadline reached (--deadline $deadline)") ;;
            *) bad="$bad eth$n/ethtool-S.start:'$note'" ;;
        esac
        for q in i.txt S.end; do
            note=$(field "$run" "net/ethtool/eth$n/ethtool-$q" 10)
            case $note in
                "skipped: ethtool -S eth$n timed out (the driver does not answer)") ;;
                "skipped: deadline reached (--deadline $deadline)") ;;
                # The window closes during the start snapshot's queries: a NIC not yet known
                # to hang may time out at the end too.
                "timed out after "[1-9]*"s, the time left before the deadline") ;;
                "") [ "$q" = S.end ] || bad="$bad eth$n/ethtool-$q:''" ;;
                *) bad="$bad eth$n/ethtool-$q:'$note'" ;;
            esac
        done
    done
    check "$run: each NIC's ethtool timed out, cut to the time left, or skipped" [ -z "$bad" ]
    [ -z "$bad" ] || echo "    $bad"
    check "$run: at least one NIC 'skipped: deadline reached'" \
        grep -q "$(printf '\t')skipped: deadline reached (--deadline $deadline)" <<<"$(manifest "$run")"
    check "$run: the steps after the window recorded 'skipped: deadline reached'" \
        grep -q '^skipped: deadline reached' <<<"$(field "$run" kernel/journalctl-k.txt 10)"
done

run=no-mpstat
check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
check_bundle "$run" 1
check "$run: mpstat-P-ALL.txt exit 127, note 'not found: mpstat'" \
    [ "$(field "$run" sysstat/mpstat-P-ALL.txt 4)|$(field "$run" sysstat/mpstat-P-ALL.txt 10)" = "127|not found: mpstat" ]
check "$run: mpstat-P-ALL.json exit 127" [ "$(field "$run" sysstat/mpstat-P-ALL.json 4)" = 127 ]
check "$run: iostat still collected" [ "$(field "$run" sysstat/iostat-x.txt 4)" = 0 ]
check_cpu "$run"
check "$run: --pid of a non-JVM: proc/$$/status collected, no JVM" \
    [ "$(field "$run" "proc/$$/status" 4)|$(meta "$run" jvms)" = "0|" ]

run=caps
check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
check_bundle "$run" 1
check "$run: os-release truncated to 100 bytes" \
    [ "$(field "$run" system/os-release 9)/$(field "$run" system/os-release 8)" = 1/100 ]
check "$run: outputs total <= --max-bytes 350" bash -c "[ \$(awk -F '\t' '\$1 == \"artifact\" && \$2 != \"collector.log\" { s += \$8 } END { print s + 0 }' <<<\"\$1\") -le 350 ]" _ "$(manifest "$run")"
check "$run: a later artifact is 'skipped: total size cap reached'" \
    grep -q "$(printf '\t')skipped: total size cap reached" <<<"$(manifest "$run")"

for run in term-dash term-bash term-busybox term-early-dash term-early-bash term-early-busybox; do
    check_rc "$run" 143
    # Stopped, not run to its end: the records say so (below); the time is only bounded loosely.
    check "$run: stopped ($(elapsed_s "$run")s <= 60s)" [ "$(elapsed_s "$run")" -le 60 ]
    check_bundle "$run" 0
    check "$run: iostat recorded as interrupted or skipped" \
        grep -q -e '^interrupted' -e '^skipped: interrupted' \
        <<<"$(field "$run" sysstat/iostat-x.txt 10)"
done

if [ "$nobody_run" = 1 ]; then
    run=nobody-fake
    check "$run: exit status 0 without root" [ "$(cat "$work/$run/rc")" = 0 ]
    check "$run: meta uid is not 0" bash -c "[[ '$(meta "$run" uid)' =~ ^[1-9][0-9]*\$ ]]"
    check "$run: unreadable proc/modules noted 'permission denied'" \
        grep -q '^permission denied' <<<"$(field "$run" proc/modules 10)"
    check "$run: tarball is private (mode 600)" \
        [ "$(stat -c %a "$(tarball "$run")" 2>/dev/null)" = 600 ]
else
    echo "skip    unprivileged run (needs root, su and a 'nobody' user)"
fi

# --- overhead --------------------------------------------------------------------------------
if [ -z "$real_why" ] && [ "$overhead" = 1 ]; then
    # Overhead: (CPU of the whole collector tree - CPU of its samplers) / wall time.
    tck=$(getconf CLK_TCK)
    for run in overhead-jvm overhead-nojvm; do
        check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
        tree=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); print f[14] + f[15] }' "$work/$run/tree.stat")
        # Wrapped samplers: utime + stime + cutime + cstime of each wrapper; jstat: last seen.
        samp=$(awk '{ s = $0; sub(/.*\) /, "", s); split(s, f, " "); t += f[12] + f[13] + f[14] + f[15] }
            END { print t + 0 }' "$work/$run/samplers.log")
        samp=$((samp + $(awk '{ last[$1] = $3 } END { for (p in last) s += last[p]; print s + 0 }' "$work/$run/jstat.log")))
        ms=$(cat "$work/$run/elapsed_ms")
        own=$(awk -v t="$tree" -v s="$samp" -v k="$tck" 'BEGIN { printf "%.2f", (t - s) / k }')
        pct=$(awk -v o="$own" -v ms="$ms" 'BEGIN { printf "%.2f", o * 100000 / ms }')
        printf 'measure %s: wall %.1f s; collector tree %.2f s CPU, samplers %.2f s, collector itself %s s = %s %% of one CPU; tarball %s bytes\n' \
            "$run" "$(awk -v m="$ms" 'BEGIN { print m / 1000 }')" \
            "$(awk -v t="$tree" -v k="$tck" 'BEGIN { print t / k }')" \
            "$(awk -v t="$samp" -v k="$tck" 'BEGIN { print t / k }')" "$own" "$pct" \
            "$(wc -c <"$(tarball "$run")")"
        echo "$pct" >"$work/$run/pct"
        echo "$own" >"$work/$run/own"
        check_cpu "$run"
        echo "measure $run: the manifest says: collector $(meta "$run" collector_cpu_seconds) s = $(meta "$run" collector_cpu_percent) % of one CPU over $(meta "$run" cpu_window) s; samplers $(meta "$run" samplers_cpu_seconds) s"
    done
    # The budgets: without JVMs the collector's own CPU (shell, bookkeeping, host-fact commands)
    # stays under 2 % of one CPU; each JVM adds its JDK tool runs (jps once; java -version, 4 jcmd
    # VM.*, 2 thread dumps, 1 class histogram: 8 JVM start-ups), which stay under 1.5 s per JVM.
    # CPU seconds depend on what else the machine runs: the runs and checks are the benchmark's
    # (bench/collector-overhead.sh sets RCA_OVERHEAD_BUDGET=1), for an idle host.
    per_jvm_s=$(awk -v a="$(cat "$work/overhead-jvm/own")" -v b="$(cat "$work/overhead-nojvm/own")" \
        'BEGIN { printf "%.2f", (a - b) / 2 }')
    echo "measure JDK tools: $per_jvm_s s of CPU per JVM per run"
    check "overhead-nojvm: collector's own CPU < 2 % of one CPU ($(cat "$work/overhead-nojvm/pct") %)" \
        awk -v p="$(cat "$work/overhead-nojvm/pct")" 'BEGIN { exit !(p < 2) }'
    check "overhead-nojvm: and so says its manifest ($(meta overhead-nojvm collector_cpu_percent) %)" \
        awk -v p="$(meta overhead-nojvm collector_cpu_percent)" 'BEGIN { exit !(p != "" && p < 2) }'
    check "overhead-jvm: JDK tools cost < 1.5 s of CPU per JVM ($per_jvm_s s)" \
        awk -v p="$per_jvm_s" 'BEGIN { exit !(p < 1.5) }'
fi

echo "measure suite: $(($(date +%s) - suite_t0)) s${RCA_TEST_LOAD:+ under $RCA_TEST_LOAD}; load average at the end: $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
