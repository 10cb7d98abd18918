#!/bin/sh
# shellcheck disable=SC2006 # backquotes on purpose, see "Command substitution" below
# collector.sh - gather raw evidence of a Linux performance incident for rca.
#
# Usage: sh collector.sh [--duration SECONDS] [--interval SECONDS] [--output DIR]
#                        [--max-bytes N] [--max-artifact-bytes N] [--help] [--version]
#
# Writes DIR/rca-<hostname>-<UTC yyyymmddThhmmssZ>.tar.gz and prints its path as the last line
# on stdout; progress goes to stderr (and into the bundle as collector.log). Exit status: 0 when
# complete, 1 on a setup error (no tarball), 2 on a usage error, 128+signal when interrupted
# (the tarball of what was collected is still written, with meta complete = 0).
#
# The collector is read-only: it reads files and runs reporting commands, never changes a
# setting. Every command runs under a time budget, so a hung tool costs at most its budget.
#
# ---------------------------------------------------------------------------------------------
# Bundle layout
#   Every tar entry is under one top folder rca-<hostname>-<ts>/ ; <hostname> is `uname -n`
#   with every byte outside [A-Za-z0-9._-] replaced by `_` (the real name is in the manifest).
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
#     collector_version  version of this script (0.1.0)
#     hostname           `uname -n`, unsanitised
#     user, uid          who ran the collector (`id -un`, `id -u`)
#     kernel, machine    `uname -r`, `uname -m`
#     started, ended     UTC epoch seconds of the run; `1732921200.123456789` where `date +%s.%N`
#                        works, else an integer (BusyBox date has no %N)
#     duration, interval the sampling window and step, in seconds, as used
#     options            the command line given (arguments joined by single spaces)
#     complete           1, or 0 when the run was interrupted by INT/TERM/HUP
#     orig_lc_all, orig_lang, orig_tz
#                        LC_ALL, LANG and TZ as found (the collector forces LC_ALL=C)
#     timeout_impl       coreutils | busybox | watchdog: how command budgets are enforced
#     sysstat_version    e.g. 12.6.1, from `iostat -V` or `mpstat -V`; empty if unknown
#
#   artifact fields (one record for every planned artifact, also the failed and skipped ones):
#     path       relative to the top folder, e.g. sysstat/iostat-x.txt
#     kind       what the content is, independent of the path (parsers are chosen by kind)
#     exit       integer exit status; 124 = timed out, 126 = not runnable, 127 = command not
#                found; empty when the command was never started (skipped, source file absent)
#     timed_out  1 if the command was stopped because its time budget ran out, else 0
#     start, end UTC epoch seconds (same format as meta started); empty if never started
#     bytes      size of the output file as stored in the bundle; 0 if absent
#     truncated  1 if the output was cut to a size cap with `head -c`, else 0. Caps count the
#                collected outputs (not manifest.tsv, not collector.log): one output keeps at
#                most --max-artifact-bytes, all of them together at most --max-bytes; once the
#                total is reached, later artifacts are not started (`skipped: total size cap`)
#     note       free text, empty when all went well; begins with `not found` or `skipped` when
#                no output file exists; other notes: `timed out after Ns`, `permission denied:
#                ...`, `exit N: <first stderr line>`, `not runnable: ...`, `interrupted`,
#                `truncated at N bytes (per-artifact cap|total size cap)`; several are joined
#                by `; `
#     argv       the command words joined by single spaces (`cat /proc/softirqs` for file copies)
#
#   A record whose note begins with `not found` or `skipped` has no output file (the command
#   was never started; exit is 127 or empty); every other record has one, possibly empty.
#   Records are in the order the collector planned them. manifest.tsv and collector.log are
#   written last; collector.log has a record of its own (kind collector-log, exit and argv
#   empty).
#
# Artifacts of this version (path -> kind):
#   system/uname.txt -> uname              system/os-release -> os-release
#   proc/modules -> proc-modules           kernel/lsmod.txt -> lsmod
#   proc/softirqs.start, proc/softirqs.end -> softirqs (window start / end)
#   proc/diskstats -> diskstats (window start)
#   sysstat/iostat-x.txt, sysstat/iostat-x.json -> iostat
#   sysstat/mpstat-P-ALL.txt, sysstat/mpstat-P-ALL.json -> mpstat
#   collector.log -> collector-log
#
# The sampling window: iostat and mpstat (text and JSON) start together in the background and
# run COUNT = duration / interval steps. mpstat prints its first sample after one interval,
# while iostat's first report is the since-boot summary, so iostat is given COUNT+1 reports:
# its reports 2..COUNT+1 then cover the same window as mpstat's COUNT samples. A `sleep
# duration` pacer runs beside them, so the softirqs start/end snapshots always span at least
# the requested window even when sysstat is missing.
#
# Interrupts: INT, TERM and HUP stop the running commands, skip what was not started yet
# (`skipped: interrupted`), take the end-of-window softirqs snapshot, and still write the
# tarball with meta complete = 0; the final tar itself is not interrupted. (A shell started
# with SIGINT ignored, e.g. `sh collector.sh &` from a script, cannot trap it; TERM still
# works there.)
#
# Testing hook: RCA_ROOT (default empty) is prefixed to every file the collector reads
# (/proc/..., /etc/...), so tests can point it at a fake tree.
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

collector_version=0.1.0

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

# Evidence can be sensitive (hostnames, module lists): the temp tree and the tarball are
# private to the invoking user.
umask 077

# Reporting tools such as lsmod live in sbin, which is often not in an unprivileged PATH.
# Appending (not prepending) keeps whatever the caller chose first.
case ":${PATH-}:" in *:/usr/sbin:*) ;; *) PATH=${PATH-}:/usr/sbin ;; esac
case ":$PATH:" in *:/sbin:*) ;; *) PATH=$PATH:/sbin ;; esac
export PATH

root=${RCA_ROOT-}

# Defaults of the options.
duration=60
interval=1
outdir=.
max_bytes=200000000
max_artifact_bytes=50000000

# Time budgets in seconds. Reading a /proc file or running uname is instantaneous; the budget
# only bounds a kernel or tool that hangs.
budget_quick=10      # file copies, uname, lsmod
budget_probe=5       # `iostat -V` and the JSON trial
budget_tar=600       # writing the tarball
kill_grace=5         # after TERM, wait this long before KILL

# Run state.
log=                 # collector.log once the bundle folder exists
tmp=                 # private temp dir
state=               # per-job bookkeeping files (inside $tmp, outside the bundle)
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
timeout_impl=watchdog
timeout_busybox_t=0
json_why=
clock=s
sysstat_version=

# ---------------------------------------------------------------------------------------------
# Small helpers

say() {
    printf 'rca-collector: %s\n' "$*" >&2
    if [ -n "$log" ]; then
        sy_t=`date -u +%Y-%m-%dT%H:%M:%SZ`
        printf '%s %s\n' "$sy_t" "$*" >>"$log"
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

# Replace TAB, CR and LF by spaces so the value fits in one manifest field.
clean() {
    printf '%s' "$1" | tr '\t\r\n' '   '
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

# Epoch seconds, sub-second where the platform's date has %N (probed once in probe_clock).
now() {
    case $clock in
        ns) date +%s.%N ;;
        s) date +%s ;;
        # POSIX awk: the second srand() returns the seed set by the first, the time of day.
        *) awk 'BEGIN { srand(); printf "%d\n", srand() }' ;;
    esac
}

epoch_s() {
    if [ "$clock" = awk ]; then
        awk 'BEGIN { srand(); printf "%d\n", srand() }'
    else
        date +%s
    fi
}

probe_clock() {
    pc_t=`date +%s.%N 2>/dev/null`
    # GNU date prints 1732921200.123456789; BusyBox prints a literal `%N`; others fail.
    case $pc_t in
        *[!0-9.]* | '' | .* | *. | *.*.*) ;;
        *.*) clock='ns'; return 0 ;;
    esac
    pc_t=`date +%s 2>/dev/null`
    if is_uint "$pc_t"; then clock='s'; else clock='awk'; fi
}

usage() {
    cat <<EOF
Usage: sh collector.sh [OPTIONS]

Collect performance evidence of this Linux host into one tarball for rca.

Options:
  --duration SECONDS       length of the sampling window (default 60)
  --interval SECONDS       sampling step of iostat/mpstat (default 1)
  --output DIR             where to write the tarball (default: current directory)
  --max-bytes N            total size cap of the collected outputs (default 200000000);
                           once reached, further artifacts are skipped and recorded so
  --max-artifact-bytes N   per-artifact cap; larger outputs are cut (default 50000000)
  --help                   show this help
  --version                show the version

Writes DIR/rca-<hostname>-<UTC yyyymmddThhmmssZ>.tar.gz and prints its path last on stdout.
Run as root for the complete evidence set; without root it collects what it can.
EOF
}

usage_error() {
    printf 'rca-collector: %s\n' "$1" >&2
    usage >&2
    exit 2
}

# ---------------------------------------------------------------------------------------------
# Time budgets. Every collection command runs under tmo, which picks one implementation once:
#   coreutils  GNU-compatible `timeout -k GRACE SECS cmd` (also uutils, FreeBSD): exits 124 on
#              timeout and signals the command's whole process group.
#   busybox    `timeout SECS cmd`, or `timeout -t SECS cmd` before BusyBox 1.30. It execs the
#              command in its own pid and only TERMs that pid; it exits 128+15 on timeout, so
#              a timeout is inferred from that status plus the elapsed time.
#   watchdog   no timeout tool: a background loop checks every second and TERMs (then KILLs)
#              the command when the budget is spent, leaving a marker file behind.
# In all cases a timed-out command is reported as exit 124 with timed_out = 1.

probe_timeout() {
    timeout_impl=watchdog
    have_cmd timeout || return 0
    pt_help=`timeout --help 2>&1`
    case $pt_help in
        *BusyBox*)
            if timeout 5 true >/dev/null 2>&1; then
                timeout_impl=busybox
            elif timeout -t 5 true >/dev/null 2>&1; then
                timeout_impl=busybox
                timeout_busybox_t=1
            fi
            ;;
        *)
            if timeout -k 1 5 true >/dev/null 2>&1; then
                timeout_impl=coreutils
            fi
            ;;
    esac
}

# watchdog PID BUDGET MARKER: run in the background next to the command.
watchdog() {
    wd_i=0
    while [ "$wd_i" -lt "$2" ]; do
        sleep 1
        kill -0 "$1" 2>/dev/null || exit 0
        wd_i=$((wd_i + 1))
    done
    : >"$3"
    kill -TERM "$1" 2>/dev/null
    wd_i=0
    while [ "$wd_i" -lt "$kill_grace" ]; do
        sleep 1
        kill -0 "$1" 2>/dev/null || exit 0
        wd_i=$((wd_i + 1))
    done
    kill -KILL "$1" 2>/dev/null
    exit 0
}

# tmo PREFIX BUDGET EXEMPT CMD [ARG...]: run CMD with a time budget, return its status (124
# when it timed out, leaving PREFIX.timedout). The command's pid goes to PREFIX.pid, so an
# interrupt can stop it; unless EXEMPT is 1, a command started after the interrupt flag file
# appeared stops itself (closing the race with on_signal, see there). Called only inside a
# job's background subshell (see capture), which has no traps, so `wait` returns only when
# the command has ended.
tmo() {
    t_pre=$1
    t_budget=$2
    t_exempt=$3
    shift 3
    t_t0=`epoch_s`
    case $timeout_impl in
        coreutils) timeout -k "$kill_grace" "$t_budget" "$@" & ;;
        busybox)
            if [ "$timeout_busybox_t" = 1 ]; then
                timeout -t "$t_budget" "$@" &
            else
                timeout "$t_budget" "$@" &
            fi
            ;;
        *) "$@" & ;;
    esac
    t_pid=$!
    echo "$t_pid" >"$t_pre.pid"
    if [ "$t_exempt" = 0 ] && [ -f "$stop_flag" ]; then
        : >"$t_pre.killed"
        kill -TERM "$t_pid" 2>/dev/null
    fi
    t_wd=
    if [ "$timeout_impl" = watchdog ]; then
        watchdog "$t_pid" "$t_budget" "$t_pre.timedout" </dev/null >/dev/null 2>&1 &
        t_wd=$!
    fi
    wait "$t_pid"
    t_rc=$?
    if [ -n "$t_wd" ]; then
        kill "$t_wd" 2>/dev/null
    fi
    t_t1=`epoch_s`
    t_elapsed=$((t_t1 - t_t0))
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
    if [ -f "$t_pre.timedout" ]; then
        return 124
    fi
    return "$t_rc"
}

# capture PREFIX BUDGET OUTFILE EXEMPT CMD [ARG...]: the body of one background job. Records
# start time, exit status and end time in PREFIX.{start,rc,end}; stderr goes to PREFIX.err.
capture() {
    c_pre=$1
    c_budget=$2
    c_out=$3
    c_exempt=$4
    shift 4
    now >"$c_pre.start"
    tmo "$c_pre" "$c_budget" "$c_exempt" "$@" <"/dev/null" >"$c_out" 2>>"$c_pre.err"
    echo "$?" >"$c_pre.rc"
    now >"$c_pre.end"
}

# spawn ID BUDGET OUTFILE CMD [ARG...]: start a job in the background. Commands always run in
# the background and the main shell `wait`s for them, because a trapped signal interrupts
# `wait` at once but would be held until a foreground command ends. A job started while
# closing is 1 (the end-of-window snapshot) or spawn_exempt is 1 (tar) is exempt: an interrupt
# does not stop it.
spawn() {
    sp_id=$1
    sp_budget=$2
    sp_out=$3
    shift 3
    sp_exempt=0
    if [ "$closing" = 1 ] || [ "$spawn_exempt" = 1 ]; then
        sp_exempt=1
        : >"$state/$sp_id.exempt"
    else
        # Listed before it starts, so that on_signal cannot miss it.
        running="$running $sp_id"
    fi
    : >"$state/$sp_id.err"
    capture "$state/$sp_id" "$sp_budget" "$sp_out" "$sp_exempt" "$@" \
        </dev/null >/dev/null 2>>"$state/$sp_id.err" &
    echo "$!" >"$state/$sp_id.wpid"
}

# reap ID: wait until the job has ended (also across interrupted waits).
reap() {
    rp_pid=
    read -r rp_pid 2>/dev/null <"$state/$1.wpid"
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

# stop_job ID: TERM the job's command (the timeout process or the command itself). The job's
# subshell then records the status as usual.
stop_job() {
    [ -f "$state/$1.exempt" ] && return 0
    kj_pid=
    read -r kj_pid 2>/dev/null <"$state/$1.pid"
    if [ -n "$kj_pid" ]; then
        : >"$state/$1.killed"
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
    if [ -n "$tmp" ] && [ -d "$tmp" ]; then
        rm -rf "$tmp"
    fi
}

# ---------------------------------------------------------------------------------------------
# Artifacts and manifest records

# write_record ID PATH KIND EXIT TIMED_OUT START END BYTES TRUNCATED NOTE ARGV
# Records are kept one file per id and joined in id (= plan) order at the end.
write_record() {
    wr_id=$1
    shift
    wr_path=`clean "$1"`
    wr_kind=`clean "$2"`
    wr_note=`clean "$9"`
    wr_argv=`clean "${10}"`
    printf 'artifact\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$wr_path" "$wr_kind" "$3" "$4" "$5" "$6" "$7" "$8" "$wr_note" "$wr_argv" \
        >"$state/$wr_id.rec"
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
    next_id
    write_record "$cur_id" "$1" "$2" "" 0 "" "" 0 0 "$3" "$4"
    say "$1: $3"
}

# prepare PATH KIND BUDGET CMD [ARG...]: decide whether the artifact can run. Records the
# artifact when it cannot (interrupted, total cap reached, command not found) and returns 1;
# otherwise sets cur_id, writes the job's info file and returns 0.
prepare() {
    pr_path=$1
    pr_kind=$2
    pr_budget=$3
    shift 3
    pr_argv=$*
    if [ "$interrupted" = 1 ] && [ "$closing" = 0 ]; then
        skip "$pr_path" "$pr_kind" "skipped: interrupted" "$pr_argv"
        return 1
    fi
    if [ "$total_bytes" -ge "$max_bytes" ]; then
        skip "$pr_path" "$pr_kind" "skipped: total size cap reached ($max_bytes bytes)" "$pr_argv"
        return 1
    fi
    if ! have_cmd "$1"; then
        next_id
        pr_t=`now`
        write_record "$cur_id" "$pr_path" "$pr_kind" 127 0 "$pr_t" "$pr_t" 0 0 \
            "not found: $1" "$pr_argv"
        say "$pr_path: not found: $1"
        return 1
    fi
    next_id
    pr_argv=`clean "$pr_argv"`
    printf '%s\n%s\n%s\n%s\n' "$pr_path" "$pr_kind" "$pr_budget" "$pr_argv" \
        >"$state/$cur_id.info"
    case $pr_path in
        */*) mkdir -p "$top/${pr_path%/*}" ;;
    esac
    return 0
}

# start ID CMD [ARG...]: spawn a prepared artifact, writing its output into the bundle.
# Returns 1 (and records the artifact as skipped) if an interrupt came in since prepare.
start() {
    st_id=$1
    shift
    { read -r st_path; read -r st_kind; read -r st_budget; read -r st_argv; } <"$state/$st_id.info"
    if [ "$interrupted" = 1 ] && [ "$closing" = 0 ]; then
        write_record "$st_id" "$st_path" "$st_kind" "" 0 "" "" 0 0 "skipped: interrupted" \
            "$st_argv"
        say "$st_path: skipped: interrupted"
        return 1
    fi
    say "$st_path ($st_kind): $*"
    spawn "$st_id" "$st_budget" "$top/$st_path" "$@"
}

# finish ID: after reap, turn the job's files into its manifest record.
finish() {
    fin_pre=$state/$1
    {
        read -r fin_path
        read -r fin_kind
        read -r fin_budget
        read -r fin_argv
    } <"$fin_pre.info"
    fin_exit=
    fin_start=
    fin_end=
    read -r fin_exit 2>/dev/null <"$fin_pre.rc"
    read -r fin_start 2>/dev/null <"$fin_pre.start"
    read -r fin_end 2>/dev/null <"$fin_pre.end"
    fin_file=$top/$fin_path
    fin_note=
    fin_timed=0
    fin_trunc=0
    fin_bytes=0
    if [ -f "$fin_file" ]; then
        fin_bytes=`wc -c <"$fin_file" | tr -d ' '`
    fi
    # Caps are applied when the job has ended, in the order jobs are finished, so the total
    # never exceeds --max-bytes even when samplers ran side by side. The command's time budget
    # bounds how much it can write meanwhile. (A streaming cut, `cmd | head -c`, would bound
    # the disk use too, but loses the exit status in POSIX sh and can hang on a grandchild
    # that keeps the pipe open; revisit for tools with huge outputs such as perf script.)
    fin_limit=$max_artifact_bytes
    fin_why="per-artifact cap"
    if [ $((max_bytes - total_bytes)) -lt "$fin_limit" ]; then
        fin_limit=$((max_bytes - total_bytes))
        fin_why="total size cap"
    fi
    if [ "$fin_bytes" -gt "$fin_limit" ]; then
        head -c "$fin_limit" "$fin_file" >"$fin_file.cut" && mv "$fin_file.cut" "$fin_file"
        fin_bytes=`wc -c <"$fin_file" | tr -d ' '`
        fin_trunc=1
    fi
    total_bytes=$((total_bytes + fin_bytes))
    if [ -f "$fin_pre.timedout" ]; then
        fin_timed=1
        fin_exit=124
        fin_note="timed out after ${fin_budget}s"
    elif [ -f "$fin_pre.killed" ]; then
        fin_note="interrupted"
    elif [ -z "$fin_exit" ]; then
        fin_note="no exit status recorded (job was killed)"
    fi
    # A permission problem is named even when the tool exits 0 (some only warn on stderr).
    fin_perm=`grep -i -e 'permission denied' -e 'operation not permitted' "$fin_pre.err"`
    fin_perm=`printf '%s\n' "$fin_perm" | sed -n '1p'`
    if [ -n "$fin_exit" ] && [ "$fin_exit" != 0 ] && [ "$fin_timed" = 0 ] &&
        [ ! -f "$fin_pre.killed" ]; then
        fin_line=`sed -n '/./{p;q;}' "$fin_pre.err"`
        case $fin_exit in
            126) fin_what="not runnable" ;;
            *) fin_what="exit $fin_exit" ;;
        esac
        # Do not repeat the stderr line when the permission note already quotes it.
        if [ -n "$fin_line" ] && [ "$fin_line" != "$fin_perm" ]; then
            fin_what="$fin_what: $fin_line"
        fi
        fin_note="${fin_note:+$fin_note; }$fin_what"
    fi
    if [ -n "$fin_perm" ]; then
        fin_note="permission denied: $fin_perm${fin_note:+; $fin_note}"
    fi
    if [ "$fin_trunc" = 1 ]; then
        fin_note="${fin_note:+$fin_note; }truncated at $fin_limit bytes ($fin_why)"
    fi
    write_record "$1" "$fin_path" "$fin_kind" "$fin_exit" "$fin_timed" "$fin_start" "$fin_end" \
        "$fin_bytes" "$fin_trunc" "$fin_note" "$fin_argv"
    if [ -s "$fin_pre.err" ]; then
        say "$fin_path: stderr (first lines):"
        sed -n '1,20s/^/    /p' "$fin_pre.err" >>"$log"
    fi
    if [ -n "$fin_note" ]; then
        say "$fin_path: $fin_note"
    fi
}

# run PATH KIND BUDGET CMD [ARG...]: one artifact, start to finish.
run() {
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
# Collection, one function per subsystem

collect_system() {
    run system/uname.txt uname "$budget_quick" uname -a
    copy system/os-release os-release /etc/os-release /usr/lib/os-release
}

collect_kernel() {
    # /proc/modules beside lsmod: only the former shows taint flags and load addresses.
    copy proc/modules proc-modules /proc/modules
    run kernel/lsmod.txt lsmod "$budget_quick" lsmod
}

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
    if ! have_cmd "$sj_tool"; then
        json_why="not found: $sj_tool"
        return 1
    fi
    next_id
    sj_id=$cur_id
    spawn "$sj_id" "$budget_probe" "$state/$sj_id.out" "$sj_tool" -V
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
    spawn "$sj_id" "$budget_probe" "$state/$sj_id.out" "$sj_tool" -o JSON
    reap "$sj_id"
    sj_rc=
    read -r sj_rc 2>/dev/null <"$state/$sj_id.rc"
    if [ "$sj_rc" = 0 ] && grep -q '"sysstat"' "$state/$sj_id.out"; then
        return 0
    fi
    json_why="skipped: $sj_tool ${sj_ver:-(version unknown)} does not support -o JSON"
    return 1
}

# sampler PATH KIND CMD [ARG...]: start one sampler of the window in the background (or record
# why it cannot start); its id joins cw_jobs.
sampler() {
    sa_path=$1
    sa_kind=$2
    shift 2
    if prepare "$sa_path" "$sa_kind" "$cw_budget" "$@" && start "$cur_id" "$@"; then
        cw_jobs="$cw_jobs $cur_id"
    fi
}

collect_window() {
    cw_count=$((duration / interval))
    [ "$cw_count" -ge 1 ] || cw_count=1
    cw_budget=$((duration + interval + 5 + duration / 10))

    cw_iostat_json=0
    cw_iostat_why=
    if sysstat_json_ok iostat; then cw_iostat_json=1; else cw_iostat_why=$json_why; fi
    cw_mpstat_json=0
    cw_mpstat_why=
    if sysstat_json_ok mpstat; then cw_mpstat_json=1; else cw_mpstat_why=$json_why; fi

    say "sampling window: ${duration}s, ${cw_count} x ${interval}s"
    cw_jobs=

    # See the header for why iostat gets COUNT+1 reports.
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
    # The pacer holds the window open for `duration` even if no sampler could start.
    cw_pacer=
    if [ "$interrupted" = 0 ]; then
        next_id
        cw_pacer=$cur_id
        spawn "$cw_pacer" "$cw_budget" /dev/null sleep "$duration"
    fi

    copy proc/softirqs.start softirqs /proc/softirqs
    copy proc/diskstats diskstats /proc/diskstats

    for cw_id in $cw_jobs $cw_pacer; do
        reap "$cw_id"
    done
    for cw_id in $cw_jobs; do
        finish "$cw_id"
    done

    # The end snapshot closes the window, also an interrupted one.
    closing=1
    copy proc/softirqs.end softirqs /proc/softirqs
    closing=0
}

# ---------------------------------------------------------------------------------------------
# Finishing: log record, manifest, tarball

meta() {
    me_v=`clean "$2"`
    printf 'meta\t%s\t%s\n' "$1" "$me_v"
}

write_manifest() {
    wm_complete=1
    [ "$interrupted" = 1 ] && wm_complete=0
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
        for wm_rec in "$state"/a*.rec; do
            [ -f "$wm_rec" ] && cat "$wm_rec"
        done
    } >"$top/manifest.tsv"
}

finalize() {
    ended=`now`
    if [ "$interrupted" = 1 ]; then
        say "interrupted; writing the partial bundle"
    else
        say "collection complete; writing the bundle"
    fi
    # The log's record describes the log as it is now; later messages go to stderr only.
    next_id
    fz_log_id=$cur_id
    fz_bytes=`wc -c <"$log" | tr -d ' '`
    write_record "$fz_log_id" collector.log collector-log "" 0 "$started" "$ended" \
        "$fz_bytes" 0 "" ""
    log=
    # The exit status follows what the manifest says: an interrupt that arrives while the
    # tarball is being written (tar is not stopped) leaves a complete bundle and status 0.
    exit_status=$signal_status
    write_manifest

    fz_final=$outdir/$topname.tar.gz
    part=$outdir/.$topname.tar.gz.part.$$
    next_id
    fz_tar=$cur_id
    # tar -czf: GNU tar pipes through gzip, BusyBox tar compresses itself. -C keeps the
    # entries relative, so all of them sit under the one top folder.
    spawn_exempt=1
    spawn "$fz_tar" "$budget_tar" "$state/$fz_tar.out" tar -czf "$part" -C "$tmp" "$topname"
    spawn_exempt=0
    reap "$fz_tar"
    fz_rc=
    read -r fz_rc 2>/dev/null <"$state/$fz_tar.rc"
    if [ "$fz_rc" != 0 ]; then
        sed -n '1,5p' "$state/$fz_tar.err" >&2
        die "tar failed (exit ${fz_rc:-none}); no tarball written"
    fi
    if ! mv "$part" "$fz_final"; then
        die "cannot move $part to $fz_final"
    fi
    part=
    say "wrote $fz_final"
    printf '%s\n' "$fz_final"
}

# ---------------------------------------------------------------------------------------------
# Main

options=$*
while [ $# -gt 0 ]; do
    case $1 in
        --help | -h)
            usage
            exit 0
            ;;
        --version)
            printf 'rca collector.sh %s\n' "$collector_version"
            exit 0
            ;;
        --duration | --interval | --output | --max-bytes | --max-artifact-bytes)
            [ $# -ge 2 ] || usage_error "option $1 needs a value"
            m_opt=$1
            m_val=$2
            shift 2
            ;;
        --duration=* | --interval=* | --output=* | --max-bytes=* | --max-artifact-bytes=*)
            m_opt=${1%%=*}
            m_val=${1#*=}
            shift
            ;;
        *)
            usage_error "unknown option: $1"
            ;;
    esac
    case $m_opt in
        --output) outdir=$m_val ;;
        *)
            is_uint "$m_val" || usage_error "$m_opt needs a whole number, got '$m_val'"
            decimal "$m_val"
            m_val=$dc_n
            case $m_opt in
                --duration) duration=$m_val ;;
                --interval) interval=$m_val ;;
                --max-bytes) max_bytes=$m_val ;;
                --max-artifact-bytes) max_artifact_bytes=$m_val ;;
            esac
            ;;
    esac
done
[ "$duration" -ge 1 ] 2>/dev/null || usage_error "--duration must be at least 1"
[ "$interval" -ge 1 ] 2>/dev/null || usage_error "--interval must be at least 1"

for m_cmd in cat date mkdir rm mv sed tr wc head grep sleep uname tar; do
    need_cmd "$m_cmd"
done

[ -d "$outdir" ] || die "output directory '$outdir' does not exist; create it or pass --output DIR"
outdir=`cd "$outdir" && pwd` || die "cannot enter output directory '$outdir'"
[ -w "$outdir" ] || die "output directory '$outdir' is not writable; pass --output DIR"

probe_clock
started=`now`
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
[ -n "$tmp" ] || die "cannot create a private temp directory under $m_tmpbase; set TMPDIR"

trap cleanup EXIT
state=$tmp/state
stop_flag=$state/interrupted
top=$tmp/$topname
mkdir "$state" "$top" || die "cannot create directories in $tmp"
log=$top/collector.log
: >"$log"
# From here on an interrupt still yields a tarball (on_signal needs $state).
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP
if [ -n "$pending_signal" ]; then
    on_signal "$pending_signal"
fi

# Fail now, not after the window, if this tar cannot write gzip (GNU tar needs gzip).
mkdir "$tmp/tar-probe"
if ! tar -czf "$tmp/tar-probe.tar.gz" -C "$tmp" tar-probe >/dev/null 2>&1; then
    die "'tar -czf' does not work here (GNU tar needs gzip); install gzip"
fi
rm -rf "$tmp/tar-probe" "$tmp/tar-probe.tar.gz"

probe_timeout
m_impl=$timeout_impl
[ "$timeout_busybox_t" = 1 ] && m_impl="$m_impl (timeout -t syntax)"
say "rca collector $collector_version on $hostname as ${user:-uid $uid}; budgets via $m_impl"
[ "$uid" = 0 ] || say "not running as root: some evidence may be missing or permission-limited"

collect_system
collect_kernel
collect_window

finalize
exit "$exit_status"
