package dev.partita.core.item;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.store.ChunkedWriter;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The run-time state of every container of one engine ({@link ContainerState}: writers, LSNs and pending
 * partition key deletes), loaded from the store on first use, and the erasure of a deleted container's data.
 */
public final class ContainerStates {
    private final Store store;
    private final Map<Integer, ContainerState> states = new ConcurrentHashMap<>();

    public ContainerStates(Store store) {
        this.store = store;
    }

    public ContainerState of(ContainerInfo c) {
        return states.computeIfAbsent(c.containerId(),
                id -> new ContainerState(LsnSequence.load(store, id), PartitionDeletes.load(store, id)));
    }

    /** The state of a container that has been used since the engine started, or null (without loading it). */
    public ContainerState loaded(ContainerInfo c) {
        return states.get(c.containerId());
    }

    /** Removes everything a deleted container left in the store (items, index, log, ...), in chunks. */
    public void erase(ContainerInfo c) {
        states.remove(c.containerId());
        ChunkedWriter out = new ChunkedWriter(store);
        for (byte space : StoreKeys.dataSpaces()) {
            out.deleteRange(StoreKeys.containerStart(space, c.containerId()),
                    StoreKeys.containerEnd(space, c.containerId()));
        }
        out.flush();
        store.apply(new WriteBatch().delete(StoreKeys.containerLsn(c.containerId()))
                .delete(StoreKeys.changeLogFloor(c.containerId())));
    }
}
