package dev.partita.examples.tracking;

/**
 * Monthly throughput cost from the published US prices (single write region, 730 hours): manual $0.008 and autoscale
 * $0.012 per 100 RU/s per hour, autoscale billed on the hour's highest value with a floor of 10% of its maximum.
 */
public final class CostEstimate {
    public static final double HOURS_PER_MONTH = 730;
    public static final double MANUAL_PER_100_RUS_HOUR = 0.008;
    public static final double AUTOSCALE_PER_100_RUS_HOUR = 0.012;

    private CostEstimate() {
    }

    public static double manual(int containers, int rusEach) {
        return containers * rusEach / 100.0 * MANUAL_PER_100_RUS_HOUR * HOURS_PER_MONTH;
    }

    /** An autoscale container idling at its floor (10% of max) all month. */
    public static double autoscaleAtFloor(int maxRus) {
        return maxRus / 10 / 100.0 * AUTOSCALE_PER_100_RUS_HOUR * HOURS_PER_MONTH;
    }

    /** An autoscale container at its maximum all month. */
    public static double autoscaleAtMax(int maxRus) {
        return maxRus / 100.0 * AUTOSCALE_PER_100_RUS_HOUR * HOURS_PER_MONTH;
    }
}
