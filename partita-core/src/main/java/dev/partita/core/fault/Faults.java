package dev.partita.core.fault;

import dev.partita.core.error.ServiceException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The account's injected faults, in the order they were added; the first rule that matches a request and fires
 * decides. Thread-safe; empty (and free) unless a test or the control API adds rules.
 */
public final class Faults {
    private final Map<Long, Active> rules = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final SplittableRandom random = new SplittableRandom(42);
    private volatile boolean any;

    private record Active(long id, FaultRule rule, AtomicInteger left) {
    }

    /** Adds a rule; returns its id. */
    public long add(FaultRule rule) {
        long id = ids.incrementAndGet();
        rules.put(id, new Active(id, rule, new AtomicInteger(rule.count())));
        any = true;
        return id;
    }

    /** Removes every rule. */
    public void clear() {
        rules.clear();
        any = false;
    }

    /** Whether no rule is in force (a delay rule sleeps the request's thread). */
    public boolean none() {
        return !any;
    }

    /** The rules in force, with how many hits each has left (-1: no bound). */
    public List<FaultRule> list() {
        List<FaultRule> out = new ArrayList<>();
        rules.values().stream().sorted((a, b) -> Long.compare(a.id(), b.id())).forEach(a -> out.add(
                new FaultRule(a.rule().kind(), a.rule().container(), a.rule().rangeId(), a.rule().rate(),
                        a.left().get(), a.rule().retryAfter())));
        return out;
    }

    /**
     * Applies the first matching rule that fires to a request on {@code rangeId} (null: not scoped to one partition)
     * of container {@code db/coll}: throws its error, or waits out its delay.
     */
    public void apply(String databaseId, String containerId, String rangeId) {
        if (!any) {
            return;
        }
        String container = databaseId + "/" + containerId;
        for (Active a : rules.values().stream().sorted((x, y) -> Long.compare(x.id(), y.id())).toList()) {
            FaultRule r = a.rule();
            if (r.container() != null && !r.container().equals(container)
                    || r.rangeId() != null && !r.rangeId().equals(rangeId) || !fires(a)) {
                continue;
            }
            ServiceException e = r.error();
            if (e != null) {
                throw e;
            }
            sleep(r);
            return;
        }
    }

    private boolean fires(Active a) {
        if (a.rule().rate() < 1) {
            synchronized (random) {
                if (random.nextDouble() >= a.rule().rate()) {
                    return false;
                }
            }
        }
        if (a.rule().count() < 0) {
            return true;
        }
        return a.left().getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    private static void sleep(FaultRule r) {
        try {
            Thread.sleep(r.retryAfter());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
