package dev.partita.bench;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One measured run: {@code completed} operations (successes; failures are counted apart, by status/sub-status) in
 * {@code wallNs}, their latencies in nanoseconds, and where the CPU time went meanwhile.
 */
record RunResult(String target, BenchOperation workload, String client, int concurrency, long completed, long errors,
        Map<String, Long> errorsByCode, long wallNs, Histogram latencyNs, CpuMeter.Usage cpu, boolean timedOut,
        int round, int attempts) {

    RunResult withRound(int newRound, int newAttempts) {
        return new RunResult(target, workload, client, concurrency, completed, errors, errorsByCode, wallNs, latencyNs,
                cpu, timedOut, newRound, newAttempts);
    }

    /** Cores busy on the machine outside the harness JVM (and outside the external server, when its pid is known). */
    double outsideCores() {
        double wall = wallNs;
        return cpu.coresBusy() - cpu.processNs() / wall - (cpu.serverNs() > 0 ? cpu.serverNs() / wall : 0);
    }

    double opsPerSecond() {
        return (completed + errors) / (wallNs / 1e9);
    }

    double ms(double percentile) {
        return latencyNs.getTotalCount() == 0 ? Double.NaN : latencyNs.getValueAtPercentile(percentile) / 1e6;
    }

    double maxMs() {
        return latencyNs.getTotalCount() == 0 ? Double.NaN : latencyNs.getMaxValue() / 1e6;
    }

    /** CPU microseconds per operation of one role (see {@link CpuMeter#role}); server = the external process. */
    double cpuMicrosPerOp(String role) {
        long ops = completed + errors;
        if (ops == 0) {
            return Double.NaN;
        }
        long ns = role.equals("server-process") ? cpu.serverNs() : cpu.byRole().getOrDefault(role, 0L);
        return ns < 0 ? Double.NaN : ns / 1e3 / ops;
    }
}
