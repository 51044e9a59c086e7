package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.util.Environment;

class RocksNativeTest {
    @TempDir
    Path cache;

    @Test
    void copiesTheLibraryOnceAndReusesIt() throws Exception {
        Path dir = inCache(cache);
        Path lib = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
        assertThat(lib).isRegularFile();
        long size = Files.size(lib);
        FileTime old = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(lib, old);

        assertThat(inCache(cache)).isEqualTo(dir);
        assertThat(Files.getLastModifiedTime(lib)).as("reused, not copied again").isEqualTo(old);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.toList()).as("no temporary copies left").containsExactly(lib);
        }

        Files.write(lib, new byte[10]); // a copy cut short
        assertThat(inCache(cache)).isEqualTo(dir);
        assertThat(Files.size(lib)).isEqualTo(size);
    }

    @Test
    void theStoreLoadsFromTheCacheNotFromATemporaryFile() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "Linux only");
        try (RocksStore store = RocksStore.open(cache.resolve("db"))) {
            List<String> maps = Files.readAllLines(Path.of("/proc/self/maps"));
            String tmp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath().toString();
            assertThat(maps).filteredOn(line -> line.contains("rocksdbjni"))
                    .isNotEmpty()
                    .noneMatch(line -> line.contains(tmp + "/librocksdbjni"));
        }
    }

    private static Path inCache(Path cache) throws Exception {
        String before = System.getProperty("partita.native.cache");
        System.setProperty("partita.native.cache", cache.toString());
        try {
            Path dir = RocksNative.cachedLibraryDir();
            assertThat(dir).isNotNull().startsWith(cache);
            return dir;
        } finally {
            if (before == null) {
                System.clearProperty("partita.native.cache");
            } else {
                System.setProperty("partita.native.cache", before);
            }
        }
    }
}
