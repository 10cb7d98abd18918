#!/usr/bin/env bash
# tests/zk-watches/s3-sample.sh - the S3 sample bundle (ZooKeeper heap full of watches), for real.
#
# Usage: bash tests/zk-watches/s3-sample.sh [OUTDIR]     (as root; OUTDIR defaults to /tmp)
#
# Starts the Debian `zookeeper` package's server standalone on 127.0.0.1 (a free port, a temp
# dataDir, all four-letter words allowed, a unified GC log) as tests/zk-watches/run.sh does,
# but with the parallel collector and a fixed heap of S3_HEAP (240m): -XX:+UseParallelGC is
# the default collector of the JDK 8 that ZooKeeper 3.6 ensembles ran on, and its old
# generation is a fixed two thirds of the heap (160 MiB), just above what one million watches
# keep live with the default watch manager (about 150 MiB). Then:
#   1. watches.py sets S3_ZNODES x S3_SESSIONS watches (10 000 x 100 = 1 000 000);
#   2. churn.py creates 4 znodes of 900 KiB and reads them without watches from 2 sessions,
#      4 requests in flight each: every reply allocates about 1 MiB that is garbage once sent,
#      so the young generation fills in well under a second, the old generation has no room
#      for what survives, and every collection becomes a full GC (`Pause Full (Ergonomics)`)
#      that leaves the old generation about 99 % full;
#   3. once S3_WARMUP_FGC full GCs have happened under that load, collector.sh runs on the
#      server (--pid, --zk 127.0.0.1:PORT, --no-perf, --duration S3_DURATION (10) --interval 1).
# The watch count does not change while the churn runs (no watch is set or fired).
#
# Checks that the bundle holds the server's jstat, class histogram, system properties, GC log
# and the mntr and wchs answers with the full watch count; that FGC rose during the jstat
# window and the old generation (`O`) was >= 90 % at every sample after a full GC. Prints
# measurements (`measure ...`), `N passed, N failed`, and last `bundle OUTDIR/rca-....tar.gz`
# (the collector's own file name). Exit status 0 when every check passed, 1 otherwise, 77 when
# skipped (not root, or zookeeper, python3-kazoo, nc or a JDK missing; nothing is installed).
# Every process started here is stopped and the temp folder removed on exit, also on failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
collector=${RCA_COLLECTOR:-$repo/collector.sh}
outdir=${1:-/tmp}
znodes=${S3_ZNODES:-10000}
sessions=${S3_SESSIONS:-100}
heap=${S3_HEAP:-240m}
duration=${S3_DURATION:-10}
warmup_fgc=${S3_WARMUP_FGC:-3}
zk_server=/usr/share/zookeeper/bin/zkServer.sh

# shellcheck source=tests/checks.sh
. "$here/../checks.sh"

# --- prerequisites ---------------------------------------------------------------------------
python=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import kazoo' >/dev/null 2>&1; then
        python=$(command -v "$p")
        break
    fi
done
why=
[ "$(id -u)" = 0 ] || why="$why (not root)"
[ -x "$zk_server" ] || why="$why zookeeper"
[ -n "$python" ] || why="$why python3-kazoo"
for t in java jcmd jstat nc tar ss shuf; do
    command -v "$t" >/dev/null 2>&1 || why="$why $t"
done
[ -f "$collector" ] || why="$why collector.sh"
if [ -n "$why" ]; then
    echo "skip    the S3 sample needs:$why"
    exit 77
fi

# --- temp folder and cleanup -----------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rca-zk-s3.XXXXXX") || exit 1
zk_pid=
watch_pid=
churn_pid=
collector_pid=
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"
cleanup() {
    stop "$collector_pid"
    stop "$churn_pid"
    stop "$watch_pid"
    stop "$zk_pid"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fgc() { # fgc PID: the full-GC count jstat reports now
    jstat -gcutil "$1" 2>/dev/null | awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "FGC") c = i; next } c { print $c }'
}
# wait_file FILE PID: until FILE exists (up to 120 s) or PID ends.
wait_file() {
    local i
    for i in $(seq 1 600); do
        [ -f "$1" ] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}

# redact IN OUT: copies the bundle IN to OUT with one change: in system/ps.txt, whatever follows
# an `--env` argument (the environment a sandbox's helper process is started with, as JSON) is
# replaced by `[removed]`, and the manifest's byte count for ps.txt follows. Every other entry,
# its order and metadata are kept. Prints how many lines were changed.
redact() {
    # shellcheck disable=SC2016 # a Python program
    "$python" -c '
import io, re, sys, tarfile
src, dst = sys.argv[1], sys.argv[2]
with tarfile.open(src, "r:gz") as t:
    members = [(m, t.extractfile(m).read() if m.isfile() else None) for m in t.getmembers()]
changed = 0
sizes = {}
for i, (m, data) in enumerate(members):
    if m.name.endswith("/system/ps.txt"):
        lines = data.decode().split("\n")
        for k, l in enumerate(lines):
            n = re.sub(r" --env .*$", " --env [removed]", l)
            changed += n != l
            lines[k] = n
        data = "\n".join(lines).encode()
        members[i] = (m, data)
        sizes["system/ps.txt"] = len(data)
for i, (m, data) in enumerate(members):
    if m.name.endswith("/manifest.tsv"):
        out = []
        for l in data.decode().split("\n"):
            f = l.split("\t")
            if len(f) > 8 and f[0] == "artifact" and f[1] in sizes:
                f[7] = str(sizes[f[1]])
            out.append("\t".join(f))
        members[i] = (m, "\n".join(out).encode())
with tarfile.open(dst, "w:gz", format=tarfile.GNU_FORMAT) as t:
    for m, data in members:
        if data is None:
            t.addfile(m)
        else:
            m.size = len(data)
            t.addfile(m, io.BytesIO(data))
print(changed)
' "$1" "$2"
}

main() {
    local d=$work port i x base now tb top j z want
    mkdir -p "$d/out"
    port=$(free_port) || {
        not_ok "no free port"
        return 1
    }
    want=$((znodes * sessions))

    if ! start_zk "$d" "$port" "-Xms$heap -Xmx$heap -XX:+UseParallelGC -Xlog:gc*:file=$d/gc.log"; then
        not_ok "ZooKeeper answers ruok on 127.0.0.1:$port"
        tail -n 20 "$d/zk.out" | sed 's/^/    /'
        return 1
    fi
    ok "ZooKeeper up on 127.0.0.1:$port, pid $zk_pid, -Xmx$heap, parallel collector"

    "$python" "$here/watches.py" --port "$port" --znodes "$znodes" --sessions "$sessions" \
        --ready "$d/ready" >"$d/watches.out" 2>&1 &
    watch_pid=$!
    if ! wait_file "$d/ready" "$watch_pid"; then
        not_ok "$want watches set by watches.py"
        tail -n 20 "$d/watches.out" | sed 's/^/    /'
        return 1
    fi
    ok "$want watches set ($(tr '\n' ' ' <"$d/ready"))"

    base=$(fgc "$zk_pid")
    "$python" "$here/churn.py" --port "$port" --ready "$d/churn-ready" >"$d/churn.out" 2>&1 &
    churn_pid=$!
    if ! wait_file "$d/churn-ready" "$churn_pid"; then
        not_ok "churn.py reads under way"
        tail -n 20 "$d/churn.out" | sed 's/^/    /'
        return 1
    fi
    # Steady state: a few full GCs under the read load before the window opens.
    for _ in $(seq 1 240); do
        now=$(fgc "$zk_pid")
        [ "${now:-0}" -ge $((${base:-0} + warmup_fgc)) ] && break
        kill -0 "$churn_pid" 2>/dev/null || break
        sleep 0.25
    done
    check "$warmup_fgc full GCs under the read load before collecting (FGC ${base:-?} -> ${now:-?})" \
        [ "${now:-0}" -ge $((${base:-0} + warmup_fgc)) ]

    sh "$collector" --duration "$duration" --interval 1 --pid "$zk_pid" --no-perf \
        --zk "127.0.0.1:$port" --label "s3-zookeeper-watches" --output "$d/out" \
        >"$d/collector.out" 2>"$d/collector.err" &
    collector_pid=$!
    wait "$collector_pid"
    x=$?
    collector_pid=
    tb=$(tail -n 1 "$d/collector.out")
    check "collector exit 0 ($x)" [ "$x" = 0 ]
    if [ ! -f "$tb" ]; then
        not_ok "collector wrote a tarball"
        tail -n 20 "$d/collector.err" | sed 's/^/    /'
        return 1
    fi
    check "the watch count did not change during the churn ($(four "$port" mntr | awk -F '\t' '$1 == "zk_watch_count" { print $2 }'))" \
        [ "$(four "$port" mntr | awk -F '\t' '$1 == "zk_watch_count" { print $2 }')" = "$want" ]
    echo "measure churn: $(tr '\n' ' ' <"$d/churn-ready")"

    mkdir -p "$d/x"
    tar -xzf "$tb" -C "$d/x"
    top=$(echo "$d"/x/rca-*)
    j=$top/jvm/$zk_pid
    z=$top/zk/127.0.0.1_$port
    for x in "$j/jstat-gcutil.txt" "$j/class-histogram.txt" "$j/vm-system-properties.txt" \
        "$j/vm-flags.txt" "$j/gc.log" "$z/mntr.txt" "$z/wchs.txt"; do
        check "bundle has ${x#"$top"/} (non-empty)" [ -s "$x" ]
    done
    check "bundle wchs says Total watches:$want" grep -qx "Total watches:$want" "$z/wchs.txt"
    check "VM.system_properties has no zookeeper.watchManagerName" \
        bash -c "! grep -q '^zookeeper.watchManagerName=' '$j/vm-system-properties.txt'"
    # shellcheck disable=SC2016 # an awk program
    x=$(awk '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "O") o = i; if ($i == "FGC") f = i }; next }
        o && f && NF > 1 {
            if (n && $f > last) { k++; after = after sep $o; sep = " "; if ($o < 90) low++ }
            if (!n) first = $f
            n++; last = $f
        }
        END { printf "%d %d %d %s", k, last - first, low, after }' "$j/jstat-gcutil.txt")
    echo "measure jstat: samples with a new full GC, FGC delta, of them below 90 %, O after each: $x"
    # shellcheck disable=SC2086 # split the four numbers into $1..$4
    set -- $x
    check "full GCs during the jstat window (FGC +${2:-0})" [ "${2:-0}" -ge 2 ]
    check "old generation >= 90 % after every full GC of the window (O: ${*:4})" [ "${3:-1}" = 0 ]
    echo "measure gc log: $(grep -c 'Pause Full' "$j/gc.log") full pauses in the bundled log; last: $(grep 'Pause Full' "$j/gc.log" | tail -n 1 | sed 's/^\[[^]]*\]//')"
    # shellcheck disable=SC2016 # an awk program
    awk '
        $1 == "Total" { total = $3 }
        $1 ~ /^[0-9]+:$/ && NF >= 4 && n < 5 { n++; cls[n] = $4; b[n] = $3; inst[n] = $2 }
        END {
            for (i = 1; i <= n; i++)
                printf "measure histogram #%d %s %d bytes (%.1f %%), %d instances\n",
                    i, cls[i], b[i], total ? b[i] * 100 / total : 0, inst[i]
        }' "$j/class-histogram.txt"
    echo "measure bundle: $(wc -c <"$tb") bytes"

    mkdir -p "$outdir"
    x=$(redact "$tb" "$outdir/${tb##*/}")
    check "bundle rewritten with $x process argument(s) of a sandbox helper removed" [ -n "$x" ]
    chmod 644 "$outdir/${tb##*/}"
    check "bundle copied to $outdir/${tb##*/}" [ -s "$outdir/${tb##*/}" ] &&
        bundle=$outdir/${tb##*/}
}

bundle=
main
echo "$passed passed, $failed failed"
[ -z "$bundle" ] || echo "bundle $bundle"
[ "$failed" = 0 ]
