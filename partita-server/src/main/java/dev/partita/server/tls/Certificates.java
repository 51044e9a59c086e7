package dev.partita.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.ECGenParameterSpec;
import java.security.cert.CertificateFactory;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

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
            m = create(clock, pem);
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

    static Material create(Clock clock, Path pem) {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            KeyPair pair = gen.generateKeyPair();
            X500Name subject = new X500Name("CN=localhost, O=Partita (self-signed for local development)");
            Instant now = clock.instant();
            BigInteger serial = new BigInteger(63, new SecureRandom()).add(BigInteger.ONE);
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial,
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(VALIDITY)), subject, pair.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")}));
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
            return new Material(pair.getPrivate(), cert, pem);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("Could not create a self-signed certificate: " + e, e);
        }
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
