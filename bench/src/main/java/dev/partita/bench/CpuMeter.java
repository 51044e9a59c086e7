package dev.partita.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the CPU time of a run went: this JVM's threads grouped by role (SDK, Partita's event loops, the virtual-thread
 * carriers that run Partita's engine work, the ceiling server), the JVM's own threads (GC, JIT: process time minus
 * Java threads), an external server process ({@code /proc/PID/stat}) and the whole machine ({@code /proc/stat}), so a
 * run shows whether the 2 cores were saturated and by whom.
 */
final class CpuMeter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /** USER_HZ: the unit of /proc/stat and /proc/PID/stat (100 on every Linux build that matters). */
    private static final double TICK_NS = 10_000_000.0;

    /** A snapshot. */
    record Snapshot(long wallNs, long processNs, Map<Long, Long> threadNs, Map<Long, String> names, long machineBusy,
            long machineTotal, long serverTicks) {
    }

    /** CPU nanoseconds per role over an interval, and the machine's busy share. */
    record Usage(Map<String, Long> byRole, long processNs, long serverNs, double machineBusy, int cores,
            long wallNs, Map<String, Long> byThread) {

        double coresBusy() {
            return machineBusy * cores;
        }
    }

    private final long serverPid;

    CpuMeter(long serverPid) {
        if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
        this.serverPid = serverPid;
    }

    Snapshot snapshot() {
        Map<Long, Long> cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long t = THREADS.getThreadCpuTime(ids[i]);
            if (t >= 0 && infos[i] != null) {
                cpu.put(ids[i], t);
                names.put(ids[i], infos[i].getThreadName());
            }
        }
        long[] machine = machine();
        return new Snapshot(System.nanoTime(), OS.getProcessCpuTime(), cpu, names, machine[0], machine[1],
                serverTicks());
    }

    Usage between(Snapshot a, Snapshot b) {
        Map<String, Long> roles = new LinkedHashMap<>();
        for (String r : new String[] {"sdk", "server-io", "server-vthreads", "ceiling", "harness", "jvm-other"}) {
            roles.put(r, 0L);
        }
        Map<String, Long> byThread = new TreeMap<>();
        long javaThreads = 0;
        for (Map.Entry<Long, Long> e : b.threadNs().entrySet()) {
            long d = e.getValue() - a.threadNs().getOrDefault(e.getKey(), 0L);
            if (d <= 0) {
                continue;
            }
            String name = b.names().get(e.getKey());
            roles.merge(role(name), d, Long::sum);
            byThread.merge(name.replaceAll("\\d+", "N"), d, Long::sum);
            javaThreads += d;
        }
        long process = b.processNs() - a.processNs();
        roles.put("jvm-other", Math.max(0, process - javaThreads));
        long busy = b.machineBusy() - a.machineBusy();
        long total = b.machineTotal() - a.machineTotal();
        long server = a.serverTicks() < 0 || b.serverTicks() < 0 ? -1
                : Math.round((b.serverTicks() - a.serverTicks()) * TICK_NS);
        return new Usage(roles, process, server, total > 0 ? (double) busy / total : Double.NaN,
                Runtime.getRuntime().availableProcessors(), b.wallNs() - a.wallNs(), byThread);
    }

    /** The role of a thread, by the names Netty, Reactor Netty, the JDK and the SDK give them. */
    static String role(String name) {
        if (name.startsWith("multiThreadIoEventLoopGroup")) {
            return "server-io"; // Partita's boss and worker event loops (Netty's default names)
        }
        if (name.startsWith("ForkJoinPool-") || name.startsWith("partita-request")) {
            return "server-vthreads"; // carriers of virtual threads: Partita's engine work (and the sync client's)
        }
        if (name.startsWith("ceiling-")) {
            return "ceiling";
        }
        if (name.equals("main") || name.startsWith("harness")) {
            return "harness";
        }
        return "sdk"; // reactor-http-nio-*, cosmos-*, parallel-*, boundedElastic-*, ...
    }

    /** busy and total jiffies of all CPUs since boot (-1 when /proc is not there). */
    private static long[] machine() {
        try {
            String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = line.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    private long serverTicks() {
        if (serverPid <= 0) {
            return -1;
        }
        try {
            String s = Files.readString(Path.of("/proc/" + serverPid + "/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split("\\s+");
            // after "pid (comm) ": state=0 ... utime=11 stime=12
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
