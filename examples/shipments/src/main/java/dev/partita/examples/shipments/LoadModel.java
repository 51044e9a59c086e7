package dev.partita.examples.shipments;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The record's nightly load, scaled. The real account: container {@code shipments} at 120,000 RU/s manual, Contoso
 * 45% of the traffic, every other tenant 5 to 40 RU/s. A simulation multiplies the throughput by {@code factor}
 * (1/100: 1,200 RU/s) and keeps everything that decides who is throttled: the physical partition layout of the real
 * throughput (20 partitions), each tenant's own rate (5 to 40 RU/s) and Contoso's 45% share. The number of small
 * tenants is what shrinks, so that their rates and Contoso's still add up to the scaled load.
 *
 * @param factor      throughput scale (1/100: 120,000 RU/s becomes 1,200)
 * @param utilization the nightly load as a share of the provisioned throughput (the account has headroom)
 * @param seed        the small tenants' rates are drawn from it, deterministically
 */
public record LoadModel(double factor, double utilization, long seed) {
    /** The record's container throughput. */
    public static final int REAL_THROUGHPUT = 120_000;
    public static final String CONTOSO = "contoso";
    /** Contoso's share of all traffic. */
    public static final double CONTOSO_SHARE = 0.45;
    public static final int MIN_TENANT_RUS = 5;
    public static final int MAX_TENANT_RUS = 40;

    /** One tenant and the RU/s it asks for. */
    public record Tenant(String id, double rus) {
    }

    /** The default simulation: throughput at 1/100, nightly load at half the provisioned throughput. */
    public static LoadModel scaled() {
        return new LoadModel(0.01, 0.5, 4);
    }

    /** The scaled container throughput. */
    public int throughput() {
        return scaledRus(REAL_THROUGHPUT);
    }

    /** {@code rus} real RU/s scaled, rounded to the service's 100 RU/s step. */
    public int scaledRus(int rus) {
        return Math.max(400, (int) Math.round(rus * factor / 100) * 100);
    }

    /** The scaled load in RU/s. */
    public double load() {
        return throughput() * utilization;
    }

    /** Contoso first, then small tenants at 5 to 40 RU/s until they carry the other 55% of the load. */
    public List<Tenant> tenants() {
        List<Tenant> out = new ArrayList<>();
        out.add(new Tenant(CONTOSO, load() * CONTOSO_SHARE));
        double rest = load() * (1 - CONTOSO_SHARE);
        Random r = new Random(seed);
        for (int i = 1; rest > 0; i++) {
            double rus = MIN_TENANT_RUS + r.nextInt(MAX_TENANT_RUS - MIN_TENANT_RUS + 1);
            if (rest - rus < MIN_TENANT_RUS) {
                // the last tenant takes what is left, or leaves exactly enough for one more
                rus = rest <= MAX_TENANT_RUS ? rest : rest - MIN_TENANT_RUS;
            }
            out.add(new Tenant(String.format("tenant-%03d", i), rus));
            rest -= rus;
        }
        return out;
    }
}
