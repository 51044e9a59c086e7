package dev.partita.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Aggregates the {@code jdk.CPUTimeSample} events of a JFR recording (JDK 25 on Linux, when enabled:
 * {@code jdk.CPUTimeSample#enabled=true}), else its {@code jdk.ExecutionSample} events (the ones {@code jfr print
 * --events jdk.ExecutionSample} lists): samples by thread role, by top frame (self time), by method anywhere on the
 * stack
 * (inclusive time) and by the first frame of a chosen package (who called into the rest).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.partita.bench.JfrTop server.jfr [top-N] [package-prefix] [thread-regex]
 * </pre>
 */
public final class JfrTop {
    private JfrTop() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: JfrTop recording.jfr [top-N, default 30] [package prefix, default dev.partita]"
                    + " [thread-name regex]");
            System.exit(2);
        }
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String prefix = args.length > 2 ? args[2] : "dev.partita";
        // optional: only threads whose name matches (virtual threads by their own name, e.g. partita-request-.*)
        java.util.regex.Pattern only = args.length > 3 ? java.util.regex.Pattern.compile(args[3]) : null;
        List<RecordedEvent> events = RecordingFile.readAllEvents(Path.of(args[0]));
        // CPU-time samples (JDK 25, Linux: every thread sampled per CPU time it used) when recorded, else the
        // classic execution samples (a few threads running Java code per period)
        String sampleEvent = events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.CPUTimeSample"))
                ? "jdk.CPUTimeSample" : "jdk.ExecutionSample";
        String threadField = sampleEvent.equals("jdk.CPUTimeSample") ? "eventThread" : "sampledThread";
        Map<String, Integer> byRole = new HashMap<>();
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> byBucket = new HashMap<>();
        Map<String, Integer> firstOwn = new HashMap<>();
        Map<String, Integer> nativeTop = new HashMap<>();
        int samples = 0;
        int nativeSamples = 0;
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals("jdk.NativeMethodSample") && e.getStackTrace() != null
                    && !e.getStackTrace().getFrames().isEmpty()) {
                // threads in native code: blocked in a syscall (epoll_wait = idle, futex = parked) or running one
                List<RecordedFrame> frames = e.getStackTrace().getFrames();
                String thread = e.getThread("sampledThread") != null
                        ? e.getThread("sampledThread").getJavaName() : "?";
                nativeTop.merge(name(frames.get(0)) + "  <- " + caller(frames) + "  [" + CpuMeter.role(
                        thread == null ? "?" : thread) + "]", 1, Integer::sum);
                nativeSamples++;
                continue;
            }
            if (!e.getEventType().getName().equals(sampleEvent)) {
                continue;
            }
            RecordedStackTrace st = e.getStackTrace();
            if (st == null || st.getFrames().isEmpty()) {
                continue;
            }
            samples++;
            String thread = e.getThread(threadField) != null ? e.getThread(threadField).getJavaName() : "?";
            if (only != null && (thread == null || !only.matcher(thread).matches())) {
                continue;
            }
            boolean virtual = e.getThread(threadField) != null && e.getThread(threadField).isVirtual();
            byRole.merge(virtual ? "virtual:" + thread.replaceAll("\\d+", "N") : CpuMeter.role(thread == null ? "?"
                    : thread) + ":" + (thread == null ? "?" : thread.replaceAll("\\d+", "N")), 1, Integer::sum);
            List<RecordedFrame> frames = st.getFrames();
            self.merge(name(frames.get(0)), 1, Integer::sum);
            byBucket.merge(bucket(frames), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            String own = null;
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (seen.add(n)) {
                    inclusive.merge(n, 1, Integer::sum);
                }
                if (own == null && n.startsWith(prefix)) {
                    own = n;
                }
            }
            firstOwn.merge(own == null ? "(no " + prefix + " frame)" : own, 1, Integer::sum);
        }
        System.out.printf("%d %s events in %s%n", samples, sampleEvent, args[0]);
        print("by thread", byRole, samples, top);
        print("by bucket (the first frame, from the top, in a known area)", byBucket, samples, top);
        print("self (top frame)", self, samples, top);
        print("inclusive (method anywhere on the stack)", inclusive, samples, top);
        print("first " + prefix + " frame from the top (where own code called into the rest)", firstOwn, samples,
                top);
        System.out.println();
        System.out.printf("%d native-method samples (threads inside a native call; idle waits included)%n",
                nativeSamples);
        print("native: top frame <- first non-JDK-internal caller [thread role]", nativeTop, nativeSamples, top);
    }

    /** The first frame below the native one that is not in java.*, sun.*, jdk.* (who made the call). */
    private static String caller(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames.subList(1, frames.size())) {
            String t = f.getMethod().getType().getName();
            if (!t.startsWith("java.") && !t.startsWith("sun.") && !t.startsWith("jdk.")) {
                return name(f);
            }
        }
        return frames.size() > 1 ? name(frames.get(1)) : "?";
    }

    private static void print(String title, Map<String, Integer> counts, int total, int top) {
        System.out.println();
        System.out.println("## " + title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> System.out.printf("%6d %5.1f%%  %s%n", e.getValue(), 100.0 * e.getValue() / total,
                        e.getKey()));
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** Areas by package, checked from the top frame down: the first match names the sample's bucket. */
    private static final Map<String, String> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("dev.partita.server.auth", "partita auth (HMAC)");
        AREAS.put("dev.partita.server", "partita gateway");
        AREAS.put("dev.partita.core.store", "partita store");
        AREAS.put("dev.partita.core", "partita engine");
        AREAS.put("com.fasterxml.jackson", "jackson");
        AREAS.put("javax.crypto", "crypto (JDK)");
        AREAS.put("com.sun.crypto", "crypto (JDK)");
        AREAS.put("sun.security", "crypto (JDK)");
        AREAS.put("java.util.regex", "regex (JDK)");
        AREAS.put("java.time", "java.time");
        AREAS.put("java.util.concurrent", "j.u.c / scheduling");
        AREAS.put("jdk.internal.vm.Continuation", "virtual thread mount/unmount");
        AREAS.put("java.lang.VirtualThread", "virtual thread mount/unmount");
        AREAS.put("sun.nio.ch", "socket I/O (NIO)");
        AREAS.put("io.netty.handler.codec.http", "netty HTTP codec");
        AREAS.put("io.netty", "netty (other)");
        AREAS.put("reactor", "reactor");
        AREAS.put("com.azure", "azure SDK");
        AREAS.put("org.rocksdb", "rocksdb");
    }

    private static String bucket(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String t = f.getMethod().getType().getName();
            for (Map.Entry<String, String> a : AREAS.entrySet()) {
                if (t.startsWith(a.getKey())) {
                    return a.getValue();
                }
            }
        }
        return "other: " + name(frames.get(0));
    }
}
