package dev.partita.cli.tools;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.partita.server.Keys;
import java.net.URI;
import picocli.CommandLine.Option;

/**
 * Where a tool connects: a Partita server or a real account, through the official SDK in gateway mode. The defaults
 * are Partita's (and the official emulator's): {@code https://localhost:8081/} with the well-known key.
 */
public final class AccountOptions {
    @Option(names = "--endpoint", description = "Account endpoint (default: ${DEFAULT-VALUE}).")
    public String endpoint = "https://localhost:8081/";

    @Option(names = "--key", description = "Account key (default: the emulator's well-known key; "
            + "or set PARTITA_KEY).", defaultValue = "${env:PARTITA_KEY}")
    public String key;

    @Option(names = "--database", required = true, description = "Database id.")
    public String database;

    @Option(names = "--container", required = true, description = "Container id.")
    public String container;

    /**
     * A client for the endpoint. For a local endpoint it accepts the self-signed certificate (HTTPS) or plain HTTP,
     * as the emulators' documentation tells SDK users to; a remote endpoint gets the SDK's normal checks.
     */
    public CosmosAsyncClient client() {
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        URI uri = URI.create(endpoint);
        boolean local = "localhost".equals(uri.getHost()) || "127.0.0.1".equals(uri.getHost());
        if (local && "https".equals(uri.getScheme())) {
            System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
        }
        if ("http".equals(uri.getScheme())) {
            System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        }
        return new CosmosClientBuilder()
                .endpoint(endpoint)
                .key(key == null || key.isBlank() ? Keys.EMULATOR_PRIMARY : key)
                .gatewayMode()
                .endpointDiscoveryEnabled(!local)
                .buildAsyncClient();
    }
}
