package dev.partita.core.item;

import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.KeyRoute;

/**
 * Lets the caller admit and price a bulk request operation by operation, as the service does: an operation runs only
 * if its physical partition still has budget, and once one is refused it and every operation after it answer 429
 * (the SDK re-sends just those, feeds-batch.md §5.3). Each result is reported as soon as it is known, so its price
 * counts against the operations after it.
 */
public interface BulkGate {
    /** Runs every operation and prices nothing. */
    BulkGate OPEN = new BulkGate() {
        @Override
        public ServiceException refusal(KeyRoute at) {
            return null;
        }

        @Override
        public BatchResult.OpResult ran(KeyRoute at, BatchResult.OpResult result) {
            return result;
        }
    };

    /** Null to run the next operation (routed to {@code at}) now, or the error to answer for it and the rest. */
    ServiceException refusal(KeyRoute at);

    /** The outcome of an operation that ran; returns it as it is to be reported (with its charge). */
    BatchResult.OpResult ran(KeyRoute at, BatchResult.OpResult result);
}
