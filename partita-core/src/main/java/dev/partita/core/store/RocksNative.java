package dev.partita.core.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.jar.JarEntry;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's native library from a copy kept in the user's cache folder. RocksDB's own loader extracts the 15 MB
 * library to a new temporary file in {@code java.io.tmpdir} on every start (a large share of the server's start-up),
 * and a JVM that is killed or forked by a test runner leaves that file behind; the copy here is made once per library
 * build and reused by every later JVM. Falls back to RocksDB's loader when the cache cannot be used.
 */
final class RocksNative {
    private RocksNative() {
    }

    static void load() {
        try {
            Path dir = cachedLibraryDir();
            if (dir == null) {
                RocksDB.loadLibrary();
                return;
            }
            RocksDB.loadLibrary(List.of(dir.toString()));
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            RocksDB.loadLibrary();
        }
    }

    /**
     * The cache folder holding this platform's library under the name {@link RocksDB#loadLibrary(List)} looks for,
     * copied there first when it is missing or incomplete; null when the jar has no library for this platform.
     */
    static Path cachedLibraryDir() throws IOException {
        // The jar holds the library as "lib<rocksdb>jni-<platform>" (getJniLibraryFileName("rocksdb")), while
        // loadLibrary(paths) loads "<path>/" + getJniLibraryFileName("rocksdbjni"); keep the copy under the latter.
        String resourceName = Environment.getJniLibraryFileName("rocksdb");
        URL resource = RocksDB.class.getResource("/" + resourceName);
        if (resource == null) {
            return null;
        }
        URLConnection connection = resource.openConnection();
        long size = connection.getContentLengthLong();
        if (size <= 0) {
            return null;
        }
        Path dir = cacheRoot().resolve("rocksdbjni-" + buildId(connection, size));
        Path lib = dir.resolve(Environment.getJniLibraryFileName("rocksdbjni"));
        if (Files.isRegularFile(lib) && Files.size(lib) == size) {
            return dir;
        }
        Files.createDirectories(dir);
        // Copy beside the target and rename: a concurrent JVM sees either no file or the whole library.
        Path tmp = Files.createTempFile(dir, resourceName, ".tmp");
        try {
            try (InputStream in = connection.getInputStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.size(tmp) != size) {
                throw new IOException("short copy of " + resource);
            }
            Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return dir;
    }

    /** The library's size and, from a jar, its CRC: a new RocksDB build gets a folder of its own. */
    private static String buildId(URLConnection connection, long size) throws IOException {
        if (connection instanceof JarURLConnection jar) {
            JarEntry entry = jar.getJarEntry();
            if (entry != null && entry.getCrc() != -1) {
                return size + "-" + Long.toHexString(entry.getCrc());
            }
        }
        return Long.toString(size);
    }

    private static Path cacheRoot() {
        String override = System.getProperty("partita.native.cache");
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("partita");
    }
}
