package dev.partita.core;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.capacity.CostModel;
import dev.partita.core.error.ServiceException;
import dev.partita.core.item.BatchResult;
import dev.partita.core.item.BulkGate;
import dev.partita.core.partition.KeyRoute;
import dev.partita.core.request.RequestOptions;

/**
 * The gate of one bulk request ({@link ContainerHandle#bulk}): admits each operation on its partition, checks its key
 * against the caller's scope, and charges it; if the first operation is refused, the whole request is.
 */
final class BulkCharges implements BulkGate {
    private final ContainerHandle handle;
    private final Capacity capacity;
    private final CostModel costs;
    private final ContainerInfo c;
    private final RequestOptions o;
    private boolean first = true;
    private double total;

    BulkCharges(ContainerHandle handle, Capacity capacity, ContainerInfo c, RequestOptions o) {
        this.handle = handle;
        this.capacity = capacity;
        this.costs = capacity.costs();
        this.c = c;
        this.o = o;
    }

    /** What the operations that ran were charged, in all. */
    double total() {
        return total;
    }

    @Override
    public ServiceException refusal(KeyRoute at) {
        try {
            o.access().checkPartitionKey(at.key());
        } catch (ServiceException e) {
            return first ? throwFirst(e) : e;
        }
        try {
            capacity.admit(c, at.range().id(), o.priority());
            return null;
        } catch (ServiceException e) {
            return first ? throwFirst(e) : e;
        }
    }

    private ServiceException throwFirst(ServiceException e) {
        throw e.charged(costs.failed(e.status()));
    }

    @Override
    public BatchResult.OpResult ran(KeyRoute at, BatchResult.OpResult result) {
        first = false;
        double ru = result.isSuccess() ? handle.price(result.work(), o) : costs.failed(result.status());
        total += capacity.charge(c, at, ru);
        return result.withCharge(ru);
    }
}
