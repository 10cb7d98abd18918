#!/usr/bin/env bash
# tests/zk-watches/run.sh - the ZooKeeper watch-manager case (S3) for real, collected twice.
#
# Usage: bash tests/zk-watches/run.sh [OUTDIR]          (as root; OUTDIR defaults to /tmp)
#
# Starts the Debian `zookeeper` package's server (zkServer.sh start-foreground: /usr/bin/java,
# comm `java`) standalone on 127.0.0.1, a free port, a temp dataDir, all four-letter words
# allowed, a small fixed heap and a unified GC log; fills it with watches through
# tests/zk-watches/watches.py (kazoo): ZKW_ZNODES znodes, ZKW_SESSIONS sessions each watching
# every znode, so ZKW_ZNODES x ZKW_SESSIONS watches (1 000 000 by default); keeps the sessions
# open and runs collector.sh on it (--pid of the server, --zk 127.0.0.1:PORT, perf off). Then
# the same with -Dzookeeper.watchManagerName=...WatchManagerOptimized (ZooKeeper >= 3.6).
#
# Checks that each bundle holds the server's jstat, class histogram, VM.system_properties,
# VM.command_line, VM.flags, GC log, the zoo.cfg it runs with (and no other) and the mntr,
# wchs, conf and srvr answers, non-empty and with the expected watch counts. Prints the
# measurements (`measure ...`: watches, znodes, connections, heap, old generation, top
# histogram classes, wall time of each phase), `N passed, N failed`, and last the bundles:
#   bundle default OUTDIR/zk-watches-default.tar.gz
#   bundle optimized OUTDIR/zk-watches-optimized.tar.gz
# Exit status 0 when every check passed, 1 otherwise, 77 when skipped (not root, or the Debian
# packages zookeeper, python3-kazoo, netcat-openbsd and a JDK are missing; nothing is
# installed here). With RCA_HOST_TESTS=1 a missing prerequisite is a failure (exit 1), not a skip.
# Every process started here is stopped and the temp folder removed on exit, also on failure.
#
# Tunables (environment): ZKW_ZNODES (10000), ZKW_SESSIONS (100), ZKW_HEAP (192m, as -Xms and
# -Xmx: with the default watch manager the million watches keep about 145 MB live, 80 % of it,
# and the old generation shows over 90 % used; with 96m that server dies of OutOfMemoryError
# while the optimized one holds the same watches in about 4 MB), ZKW_DURATION (collector
# window, 5 s).
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
collector=${RCA_COLLECTOR:-$repo/collector.sh}
strict=${RCA_HOST_TESTS:-0}
outdir=${1:-/tmp}
znodes=${ZKW_ZNODES:-10000}
sessions=${ZKW_SESSIONS:-100}
heap=${ZKW_HEAP:-192m}
duration=${ZKW_DURATION:-5}
zk_server=/usr/share/zookeeper/bin/zkServer.sh
zk_jar=/usr/share/java/zookeeper.jar
optimized=org.apache.zookeeper.server.watch.WatchManagerOptimized

# shellcheck source=tests/checks.sh
. "$here/../checks.sh"
now_ms() {
    echo $(($(date +%s%N) / 1000000))
}
secs() { # secs FROM_MS [TO_MS]: elapsed seconds, one decimal
    awk -v a="$1" -v b="${2:-$(now_ms)}" 'BEGIN { printf "%.1f", (b - a) / 1000 }'
}
t_all=$(now_ms)

# --- prerequisites ---------------------------------------------------------------------------
# Packages (zookeeper, python3-kazoo, netcat-openbsd, a JDK) are installed by .ci/run, never
# here: what is missing is named in `why` below.
# The Python with kazoo: Debian's (python3-kazoo) first, whatever python3 is first on PATH.
find_python() {
    local p
    for p in /usr/bin/python3 python3; do
        if "$p" -c 'import kazoo' >/dev/null 2>&1; then
            command -v "$p"
            return 0
        fi
    done
    return 1
}
why=
[ "$(id -u)" = 0 ] || why="$why (not root)"
[ -x "$zk_server" ] && [ -f "$zk_jar" ] || why="$why zookeeper"
python=$(find_python) || why="$why python3-kazoo"
for t in java jcmd jstat nc tar ss shuf; do
    command -v "$t" >/dev/null 2>&1 || why="$why $t"
done
[ -f "$collector" ] || why="$why collector.sh"
if [ -n "$why" ]; then
    if [ "$strict" = 1 ]; then
        not_ok "prerequisites missing:$why"
        echo "$passed passed, $failed failed"
        exit 1
    fi
    echo "skip    ZooKeeper watch-manager run needs:$why"
    exit 77
fi

# WatchManagerOptimized exists since ZooKeeper 3.6.0: check the package version and the class.
zk_version=$(dpkg-query -W -f='${Version}' zookeeper 2>/dev/null)
# shellcheck disable=SC2016 # a Python program
has_class=$("$python" -c 'import sys, zipfile
print(int("org/apache/zookeeper/server/watch/WatchManagerOptimized.class" in zipfile.ZipFile(sys.argv[1]).namelist()))' "$zk_jar" 2>/dev/null)
echo "measure ZooKeeper package ${zk_version:-unknown}, $("$python" -c 'import kazoo.version as v; print("kazoo", v.__version__)' 2>/dev/null), $(java -version 2>&1 | head -n 1)"
if ! awk -v v="$zk_version" 'BEGIN { split(v, a, /[^0-9]+/); exit !(a[1] > 3 || (a[1] == 3 && a[2] >= 6)) }' ||
    [ "$has_class" != 1 ]; then
    not_ok "ZooKeeper ${zk_version:-?} has no $optimized (needs >= 3.6.0)"
    echo "$passed passed, $failed failed"
    exit 1
fi

# --- temp folder and cleanup -----------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-zk-watches.XXXXXX") || exit 1
zk_pid=
client_pid=
collector_pid=
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"
cleanup() {
    stop "$collector_pid" # it still writes its (incomplete) tarball into the temp folder
    stop "$client_pid"
    stop "$zk_pid"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mntr() { # mntr PORT KEY
    four "$1" mntr | awk -F '\t' -v k="$2" '$1 == k { print $2 }'
}

# --- one server, its watches, one bundle -----------------------------------------------------
# run_case NAME JVM_FLAGS...: the whole sequence for one watch manager, with the bundle copied to
# OUTDIR/zk-watches-NAME.tar.gz; the client and the server are stopped whatever happened.
run_case() {
    local t0
    case_body "$@"
    t0=$(now_ms)
    stop "$client_pid"
    client_pid=
    stop "$zk_pid"
    zk_pid=
    echo "measure $1: phase stop $(secs "$t0") s"
}
case_body() {
    local name=$1 d=$work/$1 port t0 t tb x i want comm
    shift
    mkdir -p "$d/out"
    port=$(free_port) || {
        not_ok "$name: no free port"
        return 1
    }
    want=$((znodes * sessions))

    # The package's environment (zkEnv.sh) puts /etc/zookeeper/conf first on the classpath; the
    # server reads only the zoo.cfg given as argument.
    t0=$(now_ms)
    if ! start_zk "$d" "$port" "-Xms$heap -Xmx$heap -Xlog:gc*:file=$d/gc.log $*"; then
        not_ok "$name: ZooKeeper answers ruok on 127.0.0.1:$port"
        sed 's/^/    /' "$d/zk.out" | tail -n 20
        return 1
    fi
    read -r comm <"/proc/$zk_pid/comm"
    check "$name: ZooKeeper up on 127.0.0.1:$port in $(secs "$t0") s, pid $zk_pid, comm $comm" \
        [ "$comm" = java ]
    echo "measure $name: phase zk-start $(secs "$t0") s"

    # The watches.
    t0=$(now_ms)
    "$python" "$here/watches.py" --port "$port" --znodes "$znodes" --sessions "$sessions" \
        --ready "$d/ready" >"$d/client.out" 2>&1 &
    client_pid=$!
    for _ in $(seq 1 600); do
        [ -f "$d/ready" ] && break
        kill -0 "$client_pid" 2>/dev/null || break
        sleep 0.2
    done
    if [ ! -f "$d/ready" ]; then
        not_ok "$name: $want watches set by watches.py"
        sed 's/^/    /' "$d/client.out" | tail -n 20
        kill -0 "$zk_pid" 2>/dev/null || {
            echo "    ZooKeeper exited; its last output:"
            sed 's/^/    /' "$d/zk.out" | tail -n 5
        }
        return 1
    fi
    echo "measure $name: phase watches $(secs "$t0") s ($(awk '/_s /' "$d/ready" | tr '\n' ' '))"
    x=$(mntr "$port" zk_watch_count)
    check "$name: mntr zk_watch_count = $want ($x)" [ "$x" = "$want" ]
    x=$(mntr "$port" zk_znode_count)
    check "$name: mntr zk_znode_count >= $znodes ($x)" [ "${x:-0}" -ge "$znodes" ]
    x=$(four "$port" wchs | tr '\n' ' ')
    check "$name: wchs: $x" [ "$x" = "$sessions connections watching $znodes paths Total watches:$want " ]

    # The collector, on this JVM only, with its four-letter words.
    t0=$(now_ms)
    # In the background: a signal to this script then ends the wait at once (see cleanup).
    sh "$collector" --duration "$duration" --interval 1 --pid "$zk_pid" --no-perf \
        --zk "127.0.0.1:$port" --label "zk-watches $name" --output "$d/out" \
        >"$d/collector.out" 2>"$d/collector.err" &
    collector_pid=$!
    wait "$collector_pid"
    x=$?
    collector_pid=
    tb=$(tail -n 1 "$d/collector.out")
    check "$name: collector exit 0 ($x) in $(secs "$t0") s" [ "$x" = 0 ]
    echo "measure $name: phase collect $(secs "$t0") s"
    if [ ! -f "$tb" ]; then
        not_ok "$name: collector wrote a tarball"
        sed 's/^/    /' "$d/collector.err" | tail -n 20
        return 1
    fi
    mkdir -p "$d/x"
    tar -xzf "$tb" -C "$d/x"
    x=$(echo "$d"/x/rca-*)
    local j=$x/jvm/$zk_pid z=$x/zk/127.0.0.1_$port f
    for f in "$j/jstat-gcutil.txt" "$j/class-histogram.txt" "$j/vm-system-properties.txt" \
        "$j/vm-command-line.txt" "$j/vm-flags.txt" "$j/gc.log" "$x/configs$d/conf/zoo.cfg" \
        "$z/mntr.txt" "$z/wchs.txt" "$z/conf.txt" "$z/srvr.txt"; do
        check "$name: bundle has ${f#"$x"/} (non-empty)" [ -s "$f" ]
    done
    check "$name: the collector took pid $zk_pid for a JVM (meta jvms)" \
        [ "$(awk -F '\t' '$1 == "meta" && $2 == "jvms" { print $3 }' "$x/manifest.tsv")" = "$zk_pid" ]
    check "$name: the only zoo.cfg in the bundle is the one in use" \
        [ "$(find "$x/configs" -name zoo.cfg 2>/dev/null)" = "$x/configs$d/conf/zoo.cfg" ]
    # shellcheck disable=SC2016 # an awk program
    check "$name: manifest: mntr, wchs, class histogram, system properties exit 0" \
        awk -F '\t' -v p="$zk_pid" -v z="zk/127.0.0.1_$port" '
            $1 == "artifact" && ($2 == z "/mntr.txt" || $2 == z "/wchs.txt" ||
                $2 == "jvm/" p "/class-histogram.txt" || $2 == "jvm/" p "/vm-system-properties.txt") {
                n++; if ($4 != "0") bad++ }
            END { exit !(n == 4 && bad == 0) }' "$x/manifest.tsv"
    check "$name: bundle wchs says Total watches:$want" grep -qx "Total watches:$want" "$z/wchs.txt"
    check "$name: bundle mntr says zk_watch_count $want" \
        grep -qx "zk_watch_count$(printf '\t')$want" "$z/mntr.txt"
    check "$name: VM.command_line has -Xmx$heap" grep -q -- "-Xmx$heap" "$j/vm-command-line.txt"
    if [ "$name" = optimized ]; then
        check "$name: VM.system_properties names $optimized" \
            grep -qx "zookeeper.watchManagerName=$optimized" "$j/vm-system-properties.txt"
    else
        check "$name: VM.system_properties has no zookeeper.watchManagerName" \
            bash -c "! grep -q '^zookeeper.watchManagerName=' '$j/vm-system-properties.txt'"
    fi

    # Measurements from the bundle: connections, old generation, top classes.
    echo "measure $name: watches $(mntr "$port" zk_watch_count), znodes $(mntr "$port" zk_znode_count), alive connections $(mntr "$port" zk_num_alive_connections) (sessions $sessions + 1 creating + 1 mntr), wchs $(head -n 1 "$z/wchs.txt")"
    echo "measure $name: heap -Xms$heap -Xmx$heap; $(grep -o 'G1\|Serial\|Parallel\|ZGC\|Shenandoah' "$j/gc.log" | head -n 1) GC"
    # shellcheck disable=SC2016 # an awk program
    awk -v name="$name" '
        NR == 1 { for (i = 1; i <= NF; i++) if ($i == "O") o = i; next }
        NF > 1 && o { n++; last = $o; if (n == 1) first = $o }
        END { printf "measure %s: jstat old gen %% first %s, last %s (%d samples)\n", name, first, last, n }
    ' "$j/jstat-gcutil.txt"
    echo "measure $name: jstat last sample: $(tail -n 1 "$j/jstat-gcutil.txt" | tr -s ' ')"
    # shellcheck disable=SC2016 # an awk program
    awk -v name="$name" '
        $1 == "Total" { total = $3 }
        $1 ~ /^[0-9]+:$/ && NF >= 4 && n < 5 { n++; cls[n] = $4; b[n] = $3; inst[n] = $2 }
        END {
            for (i = 1; i <= n; i++)
                printf "measure %s: histogram #%d %s %d bytes (%.1f %%), %d instances\n",
                    name, i, cls[i], b[i], total ? b[i] * 100 / total : 0, inst[i]
            printf "measure %s: histogram total %d bytes\n", name, total
        }' "$j/class-histogram.txt"
    awk '$4 == "java.util.HashMap$Node" { print $3; exit }' "$j/class-histogram.txt" >"$work/$name.nodes"

    cp "$tb" "$outdir/zk-watches-$name.tar.gz" && chmod 644 "$outdir/zk-watches-$name.tar.gz"
    check "$name: bundle copied to $outdir/zk-watches-$name.tar.gz" [ -s "$outdir/zk-watches-$name.tar.gz" ]
    return 0
}

mkdir -p "$outdir"
rm -f "$outdir/zk-watches-default.tar.gz" "$outdir/zk-watches-optimized.tar.gz"
t=$(now_ms)
run_case default
echo "measure default: total $(secs "$t") s"
t=$(now_ms)
run_case optimized "-Dzookeeper.watchManagerName=$optimized"
echo "measure optimized: total $(secs "$t") s"
if [ -s "$work/default.nodes" ] && [ -s "$work/optimized.nodes" ]; then
    d=$(cat "$work/default.nodes")
    o=$(cat "$work/optimized.nodes")
    check "HashMap\$Node bytes: optimized ($o) < 1/4 of default ($d)" [ "$((o * 4))" -lt "$d" ]
fi
echo "measure all: $(secs "$t_all") s"
echo "$passed passed, $failed failed"
for name in default optimized; do
    [ -s "$outdir/zk-watches-$name.tar.gz" ] && echo "bundle $name $outdir/zk-watches-$name.tar.gz"
done
[ "$failed" = 0 ]
