package dev.partita.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a {@link PartitaServer} listens.
 *
 * @param host           the interface to bind, e.g. {@code localhost} or {@code 0.0.0.0}
 * @param port           the TCP port; 0 picks a free one (see {@link PartitaServer#port()})
 * @param https          serve HTTPS with a self-signed certificate (plain HTTP is still understood on the same port)
 * @param certificateDir where the certificate and key are kept between runs and exported as PEM; null = a temporary
 *                       folder (a new certificate on every start)
 * @param keys           the account keys the master-key signatures are checked against
 * @param noAuth         accept every request without checking its authorization
 */
public record ServerOptions(String host, int port, boolean https, Path certificateDir, Keys keys, boolean noAuth) {

    public ServerOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(keys, "keys");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535");
        }
    }

    /** {@code https://localhost:8081/} with the emulator's well-known key, the certificate kept in ./partita-data. */
    public static ServerOptions defaults() {
        return new ServerOptions("localhost", 8081, true, Path.of("partita-data"), Keys.emulator(), false);
    }

    public ServerOptions withPort(int newPort) {
        return new ServerOptions(host, newPort, https, certificateDir, keys, noAuth);
    }

    public ServerOptions withHttps(boolean on) {
        return new ServerOptions(host, port, on, certificateDir, keys, noAuth);
    }

    public ServerOptions withCertificateDir(Path dir) {
        return new ServerOptions(host, port, https, dir, keys, noAuth);
    }

    public ServerOptions withKeys(Keys newKeys) {
        return new ServerOptions(host, port, https, certificateDir, newKeys, noAuth);
    }

    public ServerOptions withNoAuth(boolean on) {
        return new ServerOptions(host, port, https, certificateDir, keys, on);
    }
}
