package dev.partita.core;

import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import java.nio.file.Path;

class MemoryEngineTest extends EngineContractTest {
    @Override
    protected Store openStore(Path dir) {
        return new MemoryStore();
    }
}
