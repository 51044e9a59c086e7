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
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
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
 * made on first start, kept as {@value #KEYSTORE} in the certificate folder and reused, exported as {@value #PEM} for
 * clients to trust. A certificate that expires within {@link #RENEW_BEFORE} is replaced.
 */
public final class Certificates {
    public static final String KEYSTORE = "partita-tls.p12";
    public static final String PEM = "partita-cert.pem";
    static final String ALIAS = "partita";
    /** The keystore only ever lives on the user's disk next to the data; its password protects nothing secret. */
    static final char[] PASSWORD = "partita".toCharArray();
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
        Path store = dir.resolve(KEYSTORE);
        Path pem = dir.resolve(PEM);
        Material m = Files.exists(store) ? load(store, pem, clock) : null;
        if (m == null) {
            m = create(clock, pem);
            save(m, store);
        }
        if (!Files.exists(pem) || !Files.readString(pem).equals(pemText(m.certificate()))) {
            writeAtomically(pem, pemText(m.certificate()).getBytes(StandardCharsets.US_ASCII));
        }
        return m;
    }

    private static Material load(Path store, Path pem, Clock clock) throws IOException {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD);
            if (!(ks.getKey(ALIAS, PASSWORD) instanceof PrivateKey key)
                    || !(ks.getCertificate(ALIAS) instanceof X509Certificate cert)) {
                return null;
            }
            Instant renewAt = cert.getNotAfter().toInstant().minus(RENEW_BEFORE);
            if (clock.instant().isAfter(renewAt) || clock.instant().isBefore(cert.getNotBefore().toInstant())) {
                return null;
            }
            return new Material(key, cert, pem);
        } catch (GeneralSecurityException e) {
            // unreadable or from another tool: make a new one
            return null;
        }
    }

    static Material create(Clock clock, Path pem) {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048, new SecureRandom());
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
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
            return new Material(pair.getPrivate(), cert, pem);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("Could not create a self-signed certificate: " + e, e);
        }
    }

    private static void save(Material m, Path store) throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(ALIAS, m.key(), PASSWORD, new Certificate[] {m.certificate()});
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            ks.store(out, PASSWORD);
            writeAtomically(store, out.toByteArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("Could not write the certificate keystore: " + e, e);
        }
    }

    static String pemText(X509Certificate cert) {
        try {
            String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(cert.getEncoded());
            return "-----BEGIN CERTIFICATE-----\n" + b64 + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
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
