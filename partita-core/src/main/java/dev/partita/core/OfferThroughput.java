package dev.partita.core;

import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.Offers;
import dev.partita.core.account.Throughput;

/** Offer replaces apply through the engine, which validates the throughput and may split partitions. */
final class OfferThroughput implements Offers.ThroughputChanges {
    private final Engine engine;

    OfferThroughput(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void setDatabaseThroughput(DatabaseInfo db, Throughput t) {
        engine.setDatabaseThroughput(db.id(), t);
    }

    @Override
    public void setContainerThroughput(ContainerInfo c, Throughput t) {
        engine.setThroughput(c, t);
    }

    @Override
    public boolean splitPending(ContainerInfo c) {
        return engine.throughputSplitPending(c);
    }
}
