/**
 * TLS: a self-signed certificate for {@code localhost} (SAN localhost, 127.0.0.1, ::1) generated with BouncyCastle on
 * first start, kept in the certificate folder as PKCS#12 and exported as {@code partita-cert.pem}, then reused.
 */
package dev.partita.server.tls;
