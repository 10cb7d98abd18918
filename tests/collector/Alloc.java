import java.util.concurrent.atomic.AtomicLong;

/**
 * A small JVM for the collector tests (tests/collector/run.sh compiles and starts it, and kills
 * it at the end). Four named worker threads ("XNIO-1 task-N", like Undertow's pool) allocate
 * steadily and keep a bounded set of arrays alive, so jstat, the GC log, the thread dumps and
 * the class histogram all have something to show; the main thread sleeps.
 *
 * Usage: java Alloc [--api-token VALUE]   (the argument is only there to be masked)
 */
public class Alloc {
    static final AtomicLong allocated = new AtomicLong();

    public static void main(String[] args) throws InterruptedException {
        for (int i = 1; i <= 4; i++) {
            Thread t = new Thread(Alloc::work, "XNIO-1 task-" + i);
            t.setDaemon(true);
            t.start();
        }
        while (true) {
            Thread.sleep(1000);
        }
    }

    static void work() {
        byte[][] keep = new byte[256][];
        int next = 0;
        while (true) {
            for (int i = 0; i < 64; i++) {
                keep[next] = new byte[4096];
                next = (next + 1) % keep.length;
                allocated.addAndGet(4096);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
