package dev.partita.cli.advise;

/** How an operation reaches the data under a candidate key, from cheapest to dearest. */
enum AccessPath {
    POINT("point"), SINGLE_PARTITION("single partition"), PREFIX("prefix"), FEW_PARTITIONS("few partitions"),
    FAN_OUT("fan-out");

    final String label;

    AccessPath(String label) {
        this.label = label;
    }
}
