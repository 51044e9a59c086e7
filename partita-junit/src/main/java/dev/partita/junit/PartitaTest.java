package dev.partita.junit;

import com.azure.cosmos.ConsistencyLevel;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class an in-process Partita (in-memory store, free port) and the official SDK client: declare a
 * parameter of type {@code CosmosClient}, {@code CosmosAsyncClient}, {@code PartitaServer} or {@code Engine} on a test
 * method, constructor or lifecycle method. One server per test class; the clients are gateway-mode clients with the
 * emulator key.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(PartitaExtension.class)
public @interface PartitaTest {
    /** Serve HTTPS with the self-signed certificate instead of plain HTTP. */
    boolean https() default false;

    /**
     * Throttle (429, sub-status 3200) requests beyond each physical partition's RU/s budget, as the service does, so
     * a test can see its retry handling work. Off by default; request charges are returned either way.
     */
    boolean enforceCapacity() default false;

    /** Let idle partitions bank burst capacity (with {@link #enforceCapacity}), as accounts with the feature do. */
    boolean burstCapacity() default false;

    /**
     * The account's default consistency (Session, as the service's default): requests may ask only for it or a weaker
     * level (400 otherwise), and reads at Strong or Bounded Staleness cost double.
     */
    ConsistencyLevel defaultConsistency() default ConsistencyLevel.SESSION;

    /**
     * Multiply the partition storage limits (20 GB logical, 50 GB physical) by this factor, so a test reaches them
     * with little data: 1e-6 makes a logical partition full at 20 KB. See {@code Limits.scaled}.
     */
    double limitsScale() default 1;

    /**
     * Set limits one by one, as {@code "name=value"} (a {@code Limits} component, e.g. {@code "maxItemBytes=4096"},
     * {@code "burstAccumulation=PT3S"}); applied after {@link #limitsScale}.
     */
    String[] limits() default {};

    /**
     * Inject faults for the class's requests, one rule per line: the kind ({@code throttle}, {@code gone},
     * {@code unavailable}, {@code timeout}, {@code delay}), then settings, e.g.
     * {@code "throttle container=db/orders count=3 retryAfterMs=100"} or {@code "unavailable rate=0.1"}. The injected
     * {@code Engine}'s {@code faults()} changes them during a test; {@code /_partita/faults} does over HTTP.
     */
    String[] faults() default {};
}
