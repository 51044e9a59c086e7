package dev.partita.server.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's TLS context, built straight from the JDK's {@link SSLContext}. Netty's own server-context builder
 * makes a throw-away RSA certificate in a static initializer (to probe trust-manager support) and registers the
 * BouncyCastle provider when it is on the class path: seconds of start-up for a server that has its key already.
 */
public final class TlsContexts {
    private TlsContexts() {
    }

    public static SslContext server(PrivateKey key, X509Certificate certificate) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new SingleKeyManager(key, certificate)}, null, null);
            return new JdkSslContext(context, false, ClientAuth.NONE);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Could not set up TLS: " + e, e);
        }
    }

    /** Always presents the one key and certificate, whatever the client asks for. */
    private static final class SingleKeyManager extends X509ExtendedKeyManager {
        private static final String ALIAS = "partita";
        private final PrivateKey key;
        private final X509Certificate[] chain;

        SingleKeyManager(PrivateKey key, X509Certificate certificate) {
            this.key = key;
            this.chain = new X509Certificate[] {certificate};
        }

        @Override
        public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
            return keyType.equals(key.getAlgorithm()) ? ALIAS : null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return keyType.equals(key.getAlgorithm()) ? ALIAS : null;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return keyType.equals(key.getAlgorithm()) ? new String[] {ALIAS} : null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return ALIAS.equals(alias) ? chain.clone() : null;
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return ALIAS.equals(alias) ? key : null;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }
}
