package dev.partita.examples.tracking;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The record's cost comparison: 20 endpoints as 20 containers at 400 RU/s manual against one autoscale container
 * with a maximum of 4,000 RU/s.
 */
public final class TrackingReport {
    static final int ENDPOINTS = 20;
    static final int LEGACY_RUS = 400;

    private TrackingReport() {
    }

    public static void main(String[] args) {
        print(System.out);
    }

    public static void print(PrintStream out) {
        out.println("Tracking store (seed 000): throughput cost per month, US prices, 730 h");
        out.printf(Locale.ROOT, "%-46s %12s%n", "layout", "USD/month");
        out.printf(Locale.ROOT, "%-46s %12.2f%n", ENDPOINTS + " containers x " + LEGACY_RUS + " RU/s manual",
                CostEstimate.manual(ENDPOINTS, LEGACY_RUS));
        out.printf(Locale.ROOT, "%-46s %12.2f%n", "1 autoscale container, max " + TrackingStore.AUTOSCALE_MAX_RUS
                + ", idle (floor)", CostEstimate.autoscaleAtFloor(TrackingStore.AUTOSCALE_MAX_RUS));
        out.printf(Locale.ROOT, "%-46s %12.2f%n", "1 autoscale container, max " + TrackingStore.AUTOSCALE_MAX_RUS
                + ", always at max", CostEstimate.autoscaleAtMax(TrackingStore.AUTOSCALE_MAX_RUS));
        out.println("(the record: about $467 against about $35 to $350)");
    }
}
