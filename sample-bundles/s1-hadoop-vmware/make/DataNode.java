// A stand-in for an HDFS DataNode, used only to collect real JVM artifacts for the S1 sample:
// same main class name, thread names shaped like Hadoop 3.3's DataNode threads, a live set
// held for the whole run (the replica map of a DataNode with a few million blocks) and a
// steady allocation rate with block files written and fsync'd (packets of a write pipeline).
// It is not Hadoop: its stack frames name this class. See the sample's README.md.
package org.apache.hadoop.hdfs.server.datanode;

import java.io.File;
import java.io.FileOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class DataNode {
    static final String BP = "BP-1183477412-192.0.2.10-1700000000000";
    static volatile boolean running = true;
    static final Object idle = new Object();

    /** About 100 bytes per replica with its map entry and key: 6 million replicas ≈ 600 MiB live. */
    static final class Replica {
        final long blockId;
        final long genStamp;
        final long bytes;
        final String volume;

        Replica(long blockId, long genStamp, long bytes, String volume) {
            this.blockId = blockId;
            this.genStamp = genStamp;
            this.bytes = bytes;
            this.volume = volume;
        }
    }

    static final Map<Long, Replica> replicaMap = new HashMap<>();

    public static void main(String[] args) throws Exception {
        int replicas = Integer.parseInt(System.getProperty("standin.replicas", "6000000"));
        int writers = Integer.parseInt(System.getProperty("standin.writers", "4"));
        long allocPerSec = Long.parseLong(System.getProperty("standin.allocMBps", "300")) << 20;
        File dataDir = new File(System.getProperty("standin.dataDir", "/tmp/dn"));
        String[] volumes = {"/data/1/dfs/dn", "/data/2/dfs/dn"};
        for (int i = 0; i < replicas; i++) {
            long id = 1073741825L + i;
            replicaMap.put(id, new Replica(id, 1001 + i, 134217728L, volumes[i & 1]));
        }

        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            threads.add(idler("IPC Server handler " + i + " on default port 9867"));
        }
        threads.add(idler("IPC Server listener on 9867"));
        threads.add(idler("IPC Server Responder"));
        threads.add(idler("IPC Server idle connection scanner for port 9867"));
        threads.add(idler("Socket Reader #1 for port 9867"));
        threads.add(idler("DataNode: [[[DISK]file:/data/1/dfs/dn, [DISK]file:/data/2/dfs/dn]]"
                + "  heartbeating to nn01.example/192.0.2.10:8020"));
        threads.add(idler("org.apache.hadoop.hdfs.server.datanode.DataXceiverServer@4d5650ae"));
        threads.add(idler("org.apache.hadoop.util.JvmPauseMonitor$Monitor@6a2f6f80"));
        threads.add(idler("VolumeScannerThread(/data/1/dfs/dn)"));
        threads.add(idler("VolumeScannerThread(/data/2/dfs/dn)"));
        threads.add(idler("Timer for 'DataNode' metrics system"));
        for (int i = 0; i < writers; i++) {
            long blk = 1073741825L + replicas + i;
            String peer = "192.0.2." + (31 + i);
            Thread w = new Thread(() -> write(dataDir, blk, allocPerSec / writers),
                    "DataXceiver for client DFSClient_attempt_1701234567890_0042_m_0000"
                            + (12 + i) + "_0_-1283746519_1 at /" + peer + ":4" + (1200 + i * 37)
                            + " [Receiving block " + BP + ":blk_" + blk + "_" + (2113 + i) + "]");
            threads.add(w);
            threads.add(idler("PacketResponder: " + BP + ":blk_" + blk + "_" + (2113 + i)
                    + ", type=HAS_DOWNSTREAM_IN_PIPELINE, downstreams=1:[192.0.2." + (22 + i % 3)
                    + ":9866]"));
        }
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> running = false));
        System.out.println("ready " + replicaMap.size() + " replicas");
        System.out.flush();
        synchronized (idle) {
            while (running) {
                idle.wait(1000);
            }
        }
    }

    static Thread idler(String name) {
        return new Thread(() -> {
            synchronized (idle) {
                while (running) {
                    try {
                        idle.wait(5000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, name);
    }

    /**
     * Allocates packets of 64 KiB at bytesPerSec; one packet in 16 goes to a block file with an
     * fsync (about 5 MiB/s per writer at 75 MiB/s of allocation); the file restarts at 64 MiB.
     */
    static void write(File dir, long blk, long bytesPerSec) {
        File f = new File(dir, "blk_" + blk);
        long start = System.nanoTime();
        long allocated = 0;
        long packets = 0;
        try {
            FileOutputStream out = new FileOutputStream(f);
            long written = 0;
            while (running) {
                byte[] packet = new byte[65536];
                packet[0] = (byte) packets;
                // Checksums of the packet: a short-lived small object.
                long[] sums = new long[128];
                for (int i = 0; i < sums.length; i++) {
                    sums[i] = packet[i * 512] ^ blk;
                }
                allocated += packet.length + sums.length * 8L;
                if (packets++ % 16 == 0) {
                    if (written >= (64L << 20)) {
                        out.close();
                        out = new FileOutputStream(f);
                        written = 0;
                    }
                    out.write(packet);
                    out.getFD().sync();
                    written += packet.length;
                }
                long due = start + allocated * 1_000_000_000L / bytesPerSec;
                long now = System.nanoTime();
                if (due > now) {
                    Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
                }
            }
            out.close();
        } catch (Exception e) {
            // The run ends.
        }
    }
}
