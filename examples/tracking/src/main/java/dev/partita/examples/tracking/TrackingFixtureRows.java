package dev.partita.examples.tracking;

/** Rows for experiments: a failure with about 8 KB of details (a stack trace), so each write costs ~15 RU. */
final class TrackingFixtureRows {
    private static final String DETAILS = "System.TimeoutException: the handler did not answer in time. "
            .repeat(130);

    private TrackingFixtureRows() {
    }

    static FailedMessage row(int i) {
        return FailedMessage.of("set-by-the-scope", "evt" + i, "s" + (i % 7), FailedMessage.FAILED,
                new FailedMessage.Failure("System.TimeoutException", DETAILS, 1), i, null);
    }
}
