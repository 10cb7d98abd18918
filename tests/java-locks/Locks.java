// Lock scenarios for thread-dump analysis, one per argument:
//   contention N  - N "worker-K" threads BLOCKED entering a monitor that "holder" owns while it
//                   sleeps inside `synchronized`.
//   deadlock      - "left" and "right" take two monitors in opposite order.
//   rdeadlock     - "reader" and "writer" take two ReentrantLocks in opposite order.
//   idle N        - N "idle-K" threads parked on an empty queue (a pool with nothing to do).
// Prints "ready" on stdout once every thread is in place, then runs until killed.
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

public class Locks {
    static final class Inventory {
        synchronized void reserve(long ms) throws InterruptedException {
            Thread.sleep(ms);
        }
    }

    static final Object LEFT = new Object();
    static final Object RIGHT = new Object();

    static void contention(int n) throws Exception {
        Inventory inv = new Inventory();
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (inv) {
                held.countDown();
                try {
                    inv.reserve(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "holder");
        holder.start();
        held.await();
        for (int i = 1; i <= n; i++) {
            new Thread(() -> {
                try {
                    inv.reserve(1);
                } catch (InterruptedException e) {
                    return;
                }
            }, "worker-" + i).start();
        }
        waitBlocked(n);
    }

    static void deadlock() throws Exception {
        CountDownLatch both = new CountDownLatch(2);
        Thread a = new Thread(() -> takeBoth(LEFT, RIGHT, both), "left");
        Thread b = new Thread(() -> takeBoth(RIGHT, LEFT, both), "right");
        a.start();
        b.start();
        waitBlocked(2);
    }

    static void takeBoth(Object first, Object second, CountDownLatch both) {
        synchronized (first) {
            both.countDown();
            try {
                both.await();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (second) {
                System.out.println("unreachable");
            }
        }
    }

    static void rdeadlock() throws Exception {
        ReentrantLock first = new ReentrantLock();
        ReentrantLock second = new ReentrantLock();
        CountDownLatch both = new CountDownLatch(2);
        new Thread(() -> lockBoth(first, second, both), "reader").start();
        new Thread(() -> lockBoth(second, first, both), "writer").start();
        both.await();
        Thread.sleep(500);
    }

    static void lockBoth(ReentrantLock a, ReentrantLock b, CountDownLatch both) {
        a.lock();
        try {
            both.countDown();
            both.await();
            b.lock();
            b.unlock();
        } catch (InterruptedException e) {
            return;
        } finally {
            a.unlock();
        }
    }

    static void idle(int n) {
        LinkedBlockingQueue<Runnable> q = new LinkedBlockingQueue<>();
        for (int i = 1; i <= n; i++) {
            new Thread(() -> {
                try {
                    q.take().run();
                } catch (InterruptedException e) {
                    return;
                }
            }, "idle-" + i).start();
        }
    }

    static void waitBlocked(int n) throws InterruptedException {
        while (true) {
            int blocked = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getState() == Thread.State.BLOCKED) {
                    blocked++;
                }
            }
            if (blocked >= n) {
                return;
            }
            Thread.sleep(20);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        switch (args.length > 0 ? args[0] : "") {
            case "contention": contention(n); break;
            case "deadlock": deadlock(); break;
            case "rdeadlock": rdeadlock(); break;
            case "idle": idle(n); break;
            default:
                System.err.println("usage: Locks contention|deadlock|rdeadlock|idle [N]");
                System.exit(2);
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
