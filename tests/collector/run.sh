#!/usr/bin/env bash
# tests/collector/run.sh - end-to-end tests of collector.sh.
#
# Runs shellcheck, then the collector under dash, bash and busybox sh (plus a BusyBox-only
# userland), with a hung iostat under each timeout implementation (coreutils, busybox,
# watchdog), without mpstat, with tiny size caps, as an unprivileged user, and with a SIGTERM
# mid-run. The collector runs are started in parallel so the whole script takes ~20 s.
# Prints `N passed, N failed` last; exits 1 if anything failed.
#
# Needs: shellcheck, sysstat, tar with gzip; installs dash and busybox with apt-get if missing.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
collector=${RCA_COLLECTOR:-$repo/collector.sh} # override to test another copy

passed=0
failed=0
ok() {
    passed=$((passed + 1))
    printf 'ok      %s\n' "$*"
}
not_ok() {
    failed=$((failed + 1))
    printf 'FAILED  %s\n' "$*"
}
# check DESCRIPTION COMMAND...: one assertion.
check() {
    local desc=$1
    shift
    if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/rca-collector-test.XXXXXX") || exit 1
chmod 711 "$work" # the unprivileged run must be able to reach its own output dir
cleanup() {
    rm -rf "$work"
}
trap cleanup EXIT

# --- prerequisites ---------------------------------------------------------------------------
for tool in dash busybox; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "installing $tool" >&2
        apt-get install -y "$tool" >/dev/null 2>&1 || true
    fi
done
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

# --- shellcheck ------------------------------------------------------------------------------
if out=$(shellcheck -s sh "$collector" 2>&1); then
    ok "shellcheck -s sh collector.sh is clean"
else
    not_ok "shellcheck -s sh collector.sh"
    printf '%s\n' "$out" | sed 's/^/    /'
fi

# --- fake PATH directories -------------------------------------------------------------------
# bin-hang: an iostat that never answers (a shell loop, so killing it leaves no long orphan).
mkdir -p "$work/bin-hang"
printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$work/bin-hang/iostat"
chmod 755 "$work/bin-hang/iostat"

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
        "$@" "$collector" --duration 10 --output "$work/$name/out" \
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

start_run dash "$PATH" "$dash_bin" -- --duration 3 --interval 1
start_run bash "$PATH" "$bash_bin" -- --duration 3 --interval 1
start_run busybox "$PATH" "$busybox_bin" sh -- --duration 3 --interval 1
start_run bb-userland "$work/bin-bb" "$busybox_bin" sh -- --duration 2 --interval 1
start_run hang-coreutils "$work/bin-hang:$PATH" "$dash_bin" -- --duration 2 --interval 1
start_run hang-busybox "$work/bin-hang:$work/bin-bb" "$busybox_bin" sh -- --duration 2 --interval 1
start_run hang-watchdog "$work/bin-hang:$work/bin-notimeout" "$bash_bin" -- --duration 2 --interval 1
start_run no-mpstat "$work/bin-nomp" "$dash_bin" -- --duration 2 --interval 1
start_run caps "$PATH" "$dash_bin" -- --duration 1 --max-artifact-bytes 100 --max-bytes 350
start_term_run term-dash 1.5 "$dash_bin"
start_term_run term-bash 1.5 "$bash_bin"
start_term_run term-busybox 1.5 "$busybox_bin" sh
start_term_run term-early-dash 0.3 "$dash_bin"
start_term_run term-early-bash 0.3 "$bash_bin"
start_term_run term-early-busybox 0.3 "$busybox_bin" sh

# Unprivileged run (only when we are root and can become nobody): a fake root whose
# proc/modules is unreadable must yield a `permission denied` note, not an abort.
nobody_run=0
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v su >/dev/null 2>&1; then
    nobody_run=1
    fake=$work/fake-root
    mkdir -p "$fake/proc" "$fake/etc" "$work/nobody/out"
    cp /proc/softirqs /proc/diskstats "$fake/proc/" 2>/dev/null
    echo 'ext4 1000000 1 - Live 0x0000000000000000' >"$fake/proc/modules"
    chmod -R a+rX "$fake"
    chmod 000 "$fake/proc/modules"
    chmod 777 "$work/nobody/out"
    (
        cd / && su -s /bin/sh nobody -c \
            "RCA_ROOT='$fake' '$dash_bin' '$collector' --duration 1 --output '$work/nobody/out'" \
            >"$work/nobody/stdout" 2>"$work/nobody/stderr"
        echo $? >"$work/nobody/rc"
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
check "--version prints 0.1.0" bash -c "'$dash_bin' '$collector' --version | grep -q '0\.1\.0'"
check "--help exits 0 with usage on stdout" \
    bash -c "'$dash_bin' '$collector' --help | grep -q '^Usage:'"

for p in "${pids[@]}"; do wait "$p"; done

# --- checks ----------------------------------------------------------------------------------
# Manifest rows use TAB; bash `read` collapses empty TAB-separated fields, so split on \037.
US=$'\037'

# manifest RUN: print manifest.tsv of RUN's tarball.
manifest() {
    tar -xzOf "$(tarball "$1")" --wildcards '*/manifest.tsv' 2>/dev/null
}
tarball() {
    tail -n 1 "$work/$1/stdout" 2>/dev/null
}
# meta RUN KEY: print the value of meta KEY.
meta() {
    manifest "$1" | awk -F '\t' -v k="$2" '$1 == "meta" && $2 == k { print $3 }'
}
# field RUN PATH N: print field N (1 = record type) of the artifact record for PATH.
field() {
    manifest "$1" | awk -F '\t' -v p="$2" -v n="$3" '$1 == "artifact" && $2 == p { print $n }'
}

planned="system/uname.txt system/os-release proc/modules kernel/lsmod.txt
sysstat/iostat-x.txt sysstat/iostat-x.json sysstat/mpstat-P-ALL.txt sysstat/mpstat-P-ALL.json
proc/softirqs.start proc/diskstats proc/softirqs.end collector.log"

meta_keys="collector_version hostname user uid kernel machine started ended duration interval
options complete orig_lc_all orig_lang orig_tz timeout_impl sysstat_version"

# check_bundle RUN EXPECTED_COMPLETE: generic checks of one run's tarball and manifest.
check_bundle() {
    local run=$1 want_complete=$2 tb top list man bad line rec path p k
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
    for k in $meta_keys; do
        grep -q "^meta$(printf '\t')$k$(printf '\t')" <<<"$man" || bad="$bad $k"
    done
    check "$run: all meta keys present" [ -z "$bad" ]
    check "$run: meta complete = $want_complete" [ "$(meta "$run" complete)" = "$want_complete" ]
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
        case ${rec[9]} in
            "not found"* | skipped*) ;; # no output file expected
            *)
                if ! grep -qx "$top/$path" <<<"$list"; then
                    bad="$bad $path:absent(note='${rec[9]}')"
                elif [ "$path" != collector.log ]; then
                    # The stored size must match the record.
                    size=$(tar -xzOf "$tb" "$top/$path" | wc -c)
                    [ "$size" = "${rec[7]}" ] || bad="$bad $path:bytes=${rec[7]},actual=$size"
                fi
                ;;
        esac
    done < <(grep '^artifact' <<<"$man")
    check "$run: exit/timed_out/start/end/bytes/truncated well-formed; files present" [ -z "$bad" ]
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

elapsed_s() {
    echo $(($(cat "$work/$1/elapsed_ms") / 1000))
}

for run in dash bash busybox bb-userland; do
    check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
    check_bundle "$run" 1
    check_iostat "$run"
done
check "dash: meta started has nanoseconds (date +%s.%N)" \
    bash -c "[[ '$(meta dash started)' =~ ^[0-9]+\\.[0-9]{9}\$ ]]"
check "bb-userland: meta started is integer (BusyBox date has no %N)" \
    bash -c "[[ '$(meta bb-userland started)' =~ ^[0-9]+\$ ]]"
check "bb-userland: timeout_impl = busybox" [ "$(meta bb-userland timeout_impl)" = busybox ]
check "dash: timeout_impl = coreutils" [ "$(meta dash timeout_impl)" = coreutils ]
check "dash: sysstat_version recorded" bash -c "[[ '$(meta dash sysstat_version)' =~ ^[0-9]+\\. ]]"
check "dash: meta orig_lang is the caller's LANG" [ "$(meta dash orig_lang)" = "${LANG-}" ]

# Hung iostat: the run finishes within duration + interval + margin (5 s + duration/10) +
# the 5 s budget of `iostat -V`, plus 5 s of slack, and records the timeout.
limit=$((2 + 1 + 5 + 5 + 5))
for impl in coreutils busybox watchdog; do
    run=hang-$impl
    check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
    check_bundle "$run" 1
    check "$run: timeout_impl = $impl" [ "$(meta "$run" timeout_impl)" = "$impl" ]
    check "$run: finished in $(elapsed_s "$run")s <= ${limit}s" [ "$(elapsed_s "$run")" -le "$limit" ]
    check "$run: iostat-x.txt exit 124, timed_out 1" \
        [ "$(field "$run" sysstat/iostat-x.txt 4)/$(field "$run" sysstat/iostat-x.txt 5)" = 124/1 ]
    check "$run: iostat-x.txt note says timed out" \
        grep -q '^timed out' <<<"$(field "$run" sysstat/iostat-x.txt 10)"
    check "$run: mpstat still collected (exit 0)" \
        [ "$(field "$run" sysstat/mpstat-P-ALL.txt 4)" = 0 ]
done

run=no-mpstat
check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
check_bundle "$run" 1
check "$run: mpstat-P-ALL.txt exit 127, note 'not found: mpstat'" \
    [ "$(field "$run" sysstat/mpstat-P-ALL.txt 4)|$(field "$run" sysstat/mpstat-P-ALL.txt 10)" = "127|not found: mpstat" ]
check "$run: mpstat-P-ALL.json exit 127" [ "$(field "$run" sysstat/mpstat-P-ALL.json 4)" = 127 ]
check "$run: iostat still collected" [ "$(field "$run" sysstat/iostat-x.txt 4)" = 0 ]

run=caps
check "$run: exit status 0" [ "$(cat "$work/$run/rc")" = 0 ]
check_bundle "$run" 1
check "$run: os-release truncated to 100 bytes" \
    [ "$(field "$run" system/os-release 9)/$(field "$run" system/os-release 8)" = 1/100 ]
check "$run: outputs total <= --max-bytes 350" bash -c "[ \$(awk -F '\t' '\$1 == \"artifact\" && \$2 != \"collector.log\" { s += \$8 } END { print s + 0 }' <<<\"\$1\") -le 350 ]" _ "$(manifest "$run")"
check "$run: a later artifact is 'skipped: total size cap reached'" \
    grep -q "$(printf '\t')skipped: total size cap reached" <<<"$(manifest "$run")"

for run in term-dash term-bash term-busybox term-early-dash term-early-bash term-early-busybox; do
    check "$run: exit status 143 after SIGTERM" [ "$(cat "$work/$run/rc")" = 143 ]
    check "$run: stopped promptly ($(elapsed_s "$run")s <= 6s)" [ "$(elapsed_s "$run")" -le 6 ]
    check_bundle "$run" 0
    check "$run: iostat recorded as interrupted or skipped" \
        grep -q -e '^interrupted' -e '^skipped: interrupted' \
        <<<"$(field "$run" sysstat/iostat-x.txt 10)"
done

if [ "$nobody_run" = 1 ]; then
    run=nobody
    check "$run: exit status 0 without root" [ "$(cat "$work/$run/rc")" = 0 ]
    check "$run: meta uid is not 0" bash -c "[[ '$(meta "$run" uid)' =~ ^[1-9][0-9]*\$ ]]"
    check "$run: unreadable proc/modules noted 'permission denied'" \
        grep -q '^permission denied' <<<"$(field "$run" proc/modules 10)"
    check "$run: tarball is private (mode 600)" \
        [ "$(stat -c %a "$(tarball "$run")" 2>/dev/null)" = 600 ]
else
    echo "skip    unprivileged run (needs root, su and a 'nobody' user)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
