package dev.partita.examples.accounts;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;

/**
 * Measures what the record measured: the request charge of a sign-in (two point reads) and of "who am I" (one), next
 * to the record's figures. Runs against any endpoint: Partita ({@code ./partita serve --http}) or a real account.
 *
 * <p>Usage: {@code AccountsReport [endpoint] [key]}; defaults: {@code http://localhost:8081/} and the emulator key.
 */
public final class AccountsReport {
    static final String EMULATOR_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    private AccountsReport() {
    }

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : "http://localhost:8081/";
        String key = args.length > 1 ? args[1] : EMULATOR_KEY;
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
        try (CosmosClient client = new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode()
                .endpointDiscoveryEnabled(false).buildClient()) {
            run(client, System.out);
        }
    }

    /** Registers a throw-away account in a database of its own, measures, and removes the database. */
    public static void run(CosmosClient client, PrintStream out) {
        String database = "accounts-report-" + UUID.randomUUID().toString().substring(0, 8);
        client.createDatabase(database);
        try {
            client.getDatabase(database).createContainer(new CosmosContainerProperties("users", "/id"));
            OperationLog log = new OperationLog();
            AccountService accounts = new AccountService(
                    new UserStore(client.getDatabase(database).getContainer("users"), log),
                    new PasswordHasher(PasswordHasher.RECOMMENDED_ITERATIONS),
                    new ClaimIds(UUID.randomUUID().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    Clock.systemUTC());
            Account account = accounts.register("report@example.com", "correct horse battery staple");
            int before = log.size();
            accounts.signIn("report@example.com", "correct horse battery staple");
            double signIn = log.chargeSince(before);
            int signInCalls = log.size() - before;
            before = log.size();
            accounts.whoAmI(account.id());
            double whoAmI = log.chargeSince(before);
            out.println("Accounts on a document store (seed 001): request charges");
            out.println("operation              calls   measured RU   record RU");
            out.printf(Locale.ROOT, "sign-in                %5d   %11.2f   %9s%n", signInCalls, signIn, "about 2");
            out.printf(Locale.ROOT, "who am I               %5d   %11.2f   %9s%n", 1, whoAmI, "about 1");
        } finally {
            client.getDatabase(database).delete();
        }
    }
}
