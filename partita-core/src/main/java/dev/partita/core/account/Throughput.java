package dev.partita.core.account;

/**
 * Provisioned throughput of a container or shared database: manual RU/s, or autoscale with a maximum RU/s. Both zero
 * means none is provisioned at this level (serverless, or a container in a shared-throughput database).
 */
public record Throughput(int manualRus, int autoscaleMaxRus) {
    public static final Throughput NONE = new Throughput(0, 0);

    public static Throughput manual(int rus) {
        return new Throughput(rus, 0);
    }

    public static Throughput autoscale(int maxRus) {
        return new Throughput(0, maxRus);
    }

    public boolean isProvisioned() {
        return manualRus > 0 || autoscaleMaxRus > 0;
    }

    public boolean isAutoscale() {
        return autoscaleMaxRus > 0;
    }
}
