package dev.partita.core.changefeed;

import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.Store;
import java.nio.file.Path;

class MemoryChangeFeedReaderTest extends ChangeFeedReaderTest {
    @Override
    protected Store openStore(Path dir) {
        return new MemoryStore();
    }
}
