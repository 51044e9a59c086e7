package dev.partita.bench;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.time.Clock;
import java.util.Arrays;

/**
 * What {@code @PartitaTest} (partita-junit) does for each test class, timed inside one warm JVM: open an engine on
 * a memory store, start the server on a free port, build the SDK client (its account read) and read a database
 * (404), then close it all. The first rounds warm the JVM; the medians of the rest are printed (ms).
 *
 * <pre>
 * java -DCOSMOS.DISABLE_IMDS_ACCESS=true -DCOSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED=true \
 *   -cp bench/target/benchmarks.jar dev.partita.bench.ExtensionStartProbe [rounds, default 30]
 * </pre>
 */
public final class ExtensionStartProbe {
    private ExtensionStartProbe() {
    }

    public static void main(String[] args) {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int warm = rounds / 3;
        double[][] t = new double[rounds - warm][];
        for (int r = 0; r < rounds; r++) {
            double[] one = once();
            if (r == 0) {
                System.out.printf("first round (cold): engine open %.1f, server listening %.1f, client built %.1f,"
                        + " first request %.1f, closed %.1f ms%n", one[0], one[1], one[2], one[3], one[4]);
            }
            if (r >= warm) {
                t[r - warm] = one;
            }
        }
        String[] names = {"engine open", "server listening", "client built", "first request", "closed"};
        StringBuilder b = new StringBuilder("median of " + t.length + " after " + warm + " warm-up rounds:");
        for (int s = 0; s < names.length; s++) {
            int step = s;
            double[] v = Arrays.stream(t).mapToDouble(x -> x[step]).sorted().toArray();
            b.append(String.format(" %s %.1f,", names[s], v[v.length / 2]));
        }
        System.out.println(b.append(" ms (cumulative; closed = the time to close)"));
    }

    private static double[] once() {
        double[] t = new double[5];
        long t0 = System.nanoTime();
        Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        engine.startBackgroundTasks();
        t[0] = ms(t0);
        PartitaServer server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null,
                Keys.emulator(), false));
        t[1] = ms(t0);
        CosmosClient client = new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.EMULATOR_PRIMARY)
                .gatewayMode().endpointDiscoveryEnabled(false).buildClient();
        t[2] = ms(t0);
        try {
            client.getDatabase("none").read();
        } catch (RuntimeException expected) {
            // 404: the request was answered
        }
        t[3] = ms(t0);
        long c0 = System.nanoTime();
        client.close();
        server.close();
        engine.close();
        t[4] = ms(c0);
        return t;
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }
}
