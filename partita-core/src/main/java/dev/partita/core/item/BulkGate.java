package dev.partita.core.item;

import dev.partita.core.error.ServiceException;

/**
 * Lets a caller throttle a bulk request operation by operation, as the service does: an operation runs only if its
 * physical partition still has budget, and once one is refused it and every operation after it answer 429 (the SDK
 * re-sends just those, feeds-batch.md §5.3). Each result is reported as soon as it is known, so its price counts
 * against the operations after it.
 */
public interface BulkGate {
    /** Runs every operation and prices nothing: for callers without capacity enforcement. */
    BulkGate OPEN = new BulkGate() {
        @Override
        public ServiceException refusal() {
            return null;
        }

        @Override
        public void ran(BatchResult.OpResult result) {
        }
    };

    /** Null to run the next operation now, or the 429 to answer for it and the rest. */
    ServiceException refusal();

    /** The outcome of an operation that ran. */
    void ran(BatchResult.OpResult result);
}
