// A JVM whose heap grows: every 100 ms it adds 50 `Leak$Session` objects (each with a 1 KiB
// `byte[]` and a `String` id) to a static list that is never cleared, as a cache without
// eviction would. Prints "ready" once the first sessions are in, then runs until killed.
import java.util.ArrayList;
import java.util.List;

public class Leak {
    static final class Session {
        final String id;
        final byte[] payload = new byte[1024];

        Session(long n) {
            id = "session-" + n;
        }
    }

    static final List<Session> SESSIONS = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        long n = 0;
        boolean ready = false;
        while (true) {
            for (int i = 0; i < 50; i++) {
                SESSIONS.add(new Session(n++));
            }
            if (!ready) {
                System.out.println("ready");
                System.out.flush();
                ready = true;
            }
            Thread.sleep(100);
        }
    }
}
