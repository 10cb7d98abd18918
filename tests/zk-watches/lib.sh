# shellcheck shell=bash disable=SC2154 # zk_server is set by the sourcing script
# Helpers shared by run.sh and s3-sample.sh: stopping processes, a free port, ZooKeeper's
# four-letter words, and a standalone ZooKeeper on loopback started the way Debian's package
# starts it. Sourced; expects `zk_server` (the zkServer.sh path) to be set.

# stop PID: TERM, up to 10 s, then KILL; reaps it.
stop() {
    local i
    [ -n "$1" ] || return 0
    kill "$1" 2>/dev/null
    for i in $(seq 1 50); do
        kill -0 "$1" 2>/dev/null || break
        [ "$i" = 50 ] && kill -KILL "$1" 2>/dev/null
        sleep 0.2
    done
    wait "$1" 2>/dev/null
    return 0
}

# free_port: a TCP port nobody listens on.
free_port() {
    local p
    for p in $(shuf -i 20000-45000 -n 50); do
        ss -ltnH "sport = :$p" 2>/dev/null | grep -q . || {
            echo "$p"
            return 0
        }
    done
    return 1
}

four() { # four PORT WORD: a four-letter word's answer
    printf '%s' "$2" | nc -w 5 127.0.0.1 "$1" 2>/dev/null
}

# start_zk DIR PORT JVMFLAGS: writes DIR/conf/zoo.cfg (standalone, loopback, every four-letter
# word allowed, no per-host connection limit), starts ZooKeeper as Debian's script starts it in
# the foreground (it execs /usr/bin/java, so the pid is the JVM's; set in `zk_pid`) with
# JVMFLAGS, in DIR (where -XX:+HeapDumpOnOutOfMemoryError, set by zkServer.sh, would write),
# output in DIR/zk.out, and waits up to 30 s for `ruok`. Returns 1 when it does not answer.
start_zk() {
    local d=$1 port=$2 flags=$3 i
    mkdir -p "$d/conf" "$d/data"
    cat >"$d/conf/zoo.cfg" <<EOC
tickTime=2000
dataDir=$d/data
clientPort=$port
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=*
EOC
    (
        cd "$d" && JVMFLAGS="$flags" exec "$zk_server" start-foreground "$d/conf/zoo.cfg" \
            >"$d/zk.out" 2>&1
    ) &
    zk_pid=$!
    for i in $(seq 1 120); do
        [ "$(four "$port" ruok)" = imok ] && return 0
        kill -0 "$zk_pid" 2>/dev/null || break
        [ "$i" = 120 ] || sleep 0.25
    done
    [ "$(four "$port" ruok)" = imok ]
}
