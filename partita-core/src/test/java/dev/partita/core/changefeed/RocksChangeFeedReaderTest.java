package dev.partita.core.changefeed;

import dev.partita.core.store.RocksStore;
import dev.partita.core.store.Store;
import java.nio.file.Path;

class RocksChangeFeedReaderTest extends ChangeFeedReaderTest {
    @Override
    protected Store openStore(Path dir) {
        return RocksStore.open(dir);
    }
}
