package dev.partita.cli.advise;

/** How an operation reaches the data under a candidate key, from cheapest to dearest. */
enum Access {
    POINT("point"), SINGLE_PARTITION("single partition"), PREFIX("prefix"), FEW_PARTITIONS("few partitions"),
    FAN_OUT("fan-out");

    final String label;

    Access(String label) {
        this.label = label;
    }
}
