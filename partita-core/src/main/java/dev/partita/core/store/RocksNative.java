package dev.partita.core.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from a copy kept in the user's cache folder. RocksDB's own loader extracts the 15 MB
 * library to a new temporary file on every start, a large share of the server's start-up; the copy is made once per
 * library version. Falls back to RocksDB's loader when the cache cannot be used.
 */
final class RocksNative {
    private RocksNative() {
    }

    static void load() {
        try {
            String name = Environment.getJniLibraryFileName("rocksdb");
            URL resource = RocksDB.class.getResource("/" + name);
            if (resource == null) {
                RocksDB.loadLibrary();
                return;
            }
            URLConnection connection = resource.openConnection();
            Path dir = cacheRoot().resolve("rocksdbjni-" + connection.getContentLengthLong());
            Path lib = dir.resolve(name);
            if (!Files.isRegularFile(lib) || Files.size(lib) != connection.getContentLengthLong()) {
                Files.createDirectories(dir);
                Path tmp = Files.createTempFile(dir, name, ".tmp");
                try (InputStream in = connection.getInputStream()) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            RocksDB.loadLibrary(List.of(dir.toString()));
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            RocksDB.loadLibrary();
        }
    }

    private static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("partita");
    }
}
