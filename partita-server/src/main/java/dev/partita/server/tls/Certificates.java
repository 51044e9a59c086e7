package dev.partita.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.cert.CertificateFactory;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The server's self-signed certificate for {@code localhost} (subject CN=localhost; SAN localhost, 127.0.0.1, ::1):
 * made on first start (ECDSA P-256: quick to make and to handshake), kept as {@value #KEY} and {@value #PEM} in the
 * certificate folder and reused; clients trust {@value #PEM}. A certificate that expires within {@link #RENEW_BEFORE} is replaced.
 */
public final class Certificates {
    /** The private key, PKCS#8 PEM, readable by the owner only: plain PEM loads in milliseconds, a PKCS#12 keystore's
     * password-based encryption costs a noticeable part of the start-up time. */
    public static final String KEY = "partita-key.pem";
    public static final String PEM = "partita-cert.pem";
    static final Duration VALIDITY = Duration.ofDays(825);
    static final Duration RENEW_BEFORE = Duration.ofDays(7);

    private Certificates() {
    }

    /** A key, its certificate, and where the PEM copy of the certificate is. */
    public record Material(PrivateKey key, X509Certificate certificate, Path pem) {
    }

    /** Loads the certificate kept in {@code dir}, or makes (and keeps) a new one. */
    public static Material loadOrCreate(Path dir, Clock clock) throws IOException {
        Files.createDirectories(dir);
        Path keyFile = dir.resolve(KEY);
        Path pem = dir.resolve(PEM);
        Material m = Files.exists(keyFile) && Files.exists(pem) ? load(keyFile, pem, clock) : null;
        if (m == null) {
            // made by another class: BouncyCastle's signed jar is only opened (and verified) on first start
            m = SelfSignedCertificate.create(clock, pem);
            writeAtomically(keyFile, pemBlock("PRIVATE KEY", m.key().getEncoded()), true);
            writeAtomically(pem, pemText(m.certificate()).getBytes(StandardCharsets.US_ASCII), false);
        }
        return m;
    }

    private static Material load(Path keyFile, Path pem, Clock clock) throws IOException {
        try {
            PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(
                    pemBody(Files.readString(keyFile, StandardCharsets.US_ASCII))));
            X509Certificate cert;
            try (InputStream in = Files.newInputStream(pem)) {
                cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            Instant renewAt = cert.getNotAfter().toInstant().minus(RENEW_BEFORE);
            if (clock.instant().isAfter(renewAt) || clock.instant().isBefore(cert.getNotBefore().toInstant())) {
                return null;
            }
            return new Material(key, cert, pem);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // unreadable, or from another tool: make a new one
            return null;
        }
    }

    private static byte[] pemBody(String text) {
        String b64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(b64);
    }


    static String pemText(X509Certificate cert) {
        try {
            return new String(pemBlock("CERTIFICATE", cert.getEncoded()), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pemBlock(String type, byte[] der) {
        String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return ("-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static void writeAtomically(Path target, byte[] bytes, boolean ownerOnly) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (ownerOnly) {
            try {
                Files.createFile(tmp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(tmp);
            }
        }
        try (OutputStream out = Files.newOutputStream(tmp)) {
            out.write(bytes);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
