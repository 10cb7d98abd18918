#!/usr/bin/env bash
# collect-base.sh - the real collection the S1 sample starts from.
#
# Usage: bash sample-bundles/s1-hadoop-vmware/make/collect-base.sh OUTDIR     (as root)
#
# Starts the stand-in DataNode JVM (make/DataNode.java: main class
# org.apache.hadoop.hdfs.server.datanode.DataNode) the way Hadoop 3.3.6's `hdfs --daemon start
# datanode` starts the real one (the same system properties, HDFS_DATANODE_OPTS of a 4 GiB G1
# heap with a unified GC log, the --add-opens Hadoop needs on JDK 17, the configuration
# folder first on the class path and in HADOOP_CONF_DIR), all under a temp folder that mirrors
# /opt/hadoop-3.3.6; -XX:ActiveProcessorCount=8 makes the JVM size its GC and compiler threads
# for the sample's 8 vCPUs. Waits until the stand-in has allocated its live set and run for
# 20 s, then collects: collector.sh --duration 30 --interval 1 --pid <its pid> --no-perf.
# Copies the bundle to OUTDIR and prints its path last. The JVM is stopped and the temp folder
# removed on exit. make-s1.py turns this bundle into the S1 sample.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
outdir=${1:?usage: collect-base.sh OUTDIR}
[ "$(id -u)" = 0 ] || {
    echo "run as root (the collector reads /proc of the JVM and attaches to it)" >&2
    exit 1
}
java_home=/usr/lib/jvm/java-17-openjdk-amd64
[ -x "$java_home/bin/javac" ] || {
    echo "needs $java_home (Debian: openjdk-17-jdk-headless)" >&2
    exit 1
}

work=$(mktemp -d /tmp/rca-s1-base.XXXXXX) || exit 1
dn_pid=
cleanup() {
    if [ -n "$dn_pid" ]; then
        kill "$dn_pid" 2>/dev/null
        wait "$dn_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

h=$work/opt/hadoop-3.3.6
mkdir -p "$h/etc/hadoop" "$h/logs" "$h/share/hadoop/hdfs/classes" "$work/data/1/dfs/dn" "$work/out"
cp "$here/conf/"*-site.xml "$h/etc/hadoop/"
"$java_home/bin/javac" -d "$h/share/hadoop/hdfs/classes" "$here/DataNode.java" || exit 1

cd "$h" || exit 1
HADOOP_CONF_DIR=$h/etc/hadoop HADOOP_HOME=$h \
    "$java_home/bin/java" -Dproc_datanode \
    -Djava.net.preferIPv4Stack=true \
    -Xms4g -Xmx4g -XX:+UseG1GC -XX:MaxGCPauseMillis=200 -XX:ActiveProcessorCount=8 \
    "-Xlog:gc*:file=$h/logs/gc-datanode.log" \
    --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    -Dhadoop.security.logger=ERROR,RFAS \
    -Dyarn.log.dir="$h/logs" -Dyarn.log.file=hadoop-hdfs-datanode-dn01.example.log \
    -Dyarn.home.dir="$h" -Dyarn.root.logger=INFO,console \
    -Djava.library.path="$h/lib/native" \
    -Dhadoop.log.dir="$h/logs" -Dhadoop.log.file=hadoop-hdfs-datanode-dn01.example.log \
    -Dhadoop.home.dir="$h" -Dhadoop.id.str=hdfs -Dhadoop.root.logger=INFO,RFA \
    -Dhadoop.policy.file=hadoop-policy.xml \
    -Dstandin.dataDir="$work/data/1/dfs/dn" \
    -cp "$h/etc/hadoop:$h/share/hadoop/hdfs/classes" \
    org.apache.hadoop.hdfs.server.datanode.DataNode >"$h/logs/datanode.out" 2>&1 &
dn_pid=$!
for _ in $(seq 1 120); do
    grep -q '^ready' "$h/logs/datanode.out" 2>/dev/null && break
    kill -0 "$dn_pid" 2>/dev/null || break
    sleep 0.5
done
grep -q '^ready' "$h/logs/datanode.out" || {
    echo "the stand-in DataNode did not start:" >&2
    cat "$h/logs/datanode.out" >&2
    exit 1
}
sleep 20
sh "$repo/collector.sh" --duration 30 --interval 1 --pid "$dn_pid" --no-perf \
    --label s1-hadoop-vmware --output "$work/out" >"$work/collector.out" 2>"$work/collector.err"
rc=$?
tb=$(tail -n 1 "$work/collector.out")
if [ "$rc" != 0 ] || [ ! -f "$tb" ]; then
    echo "collector failed ($rc):" >&2
    tail -n 20 "$work/collector.err" >&2
    exit 1
fi
echo "stand-in pid $dn_pid, work folder $work (the prefix make-s1.py removes)"
mkdir -p "$outdir"
cp "$tb" "$outdir/" && echo "$outdir/${tb##*/}"
