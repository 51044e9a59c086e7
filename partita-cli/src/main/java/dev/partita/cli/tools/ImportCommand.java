package dev.partita.cli.tools;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBulkItemResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import reactor.core.publisher.Flux;

/**
 * {@code partita import}: upserts the items of a JSON Lines file into a container through the SDK's bulk API.
 *
 * <p>With {@code --bad-lines fail} (the default) the whole file is checked before anything is written, so a bad line
 * leaves the container untouched. Every item is written whole or not at all, and upserts make a rerun after an
 * interruption converge on the file's content.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Upsert the items of a JSON Lines file into a container (bulk, through the official SDK).")
public final class ImportCommand implements Callable<Integer> {
    /** What to do with a line that is not an importable item. */
    public enum BadLines { SKIP, FAIL }

    private static final int REPORTED = 20;

    @Mixin
    AccountOptions account;

    @Parameters(index = "0", paramLabel = "FILE", description = "JSON Lines file: one item (a JSON object with an id) per line.")
    Path file;

    @Option(names = "--bad-lines", description = "skip or fail (default: ${DEFAULT-VALUE}; fail checks the whole "
            + "file before writing anything).", converter = BadLinesConverter.class)
    BadLines badLines = BadLines.FAIL;

    @Option(names = "--create-with-key", paramLabel = "PATHS", description = "Create the database and container if "
            + "missing, keyed by these comma-separated paths (e.g. /tenantId,/userId).")
    String createWithKey;

    PrintStream out = System.out;
    PrintStream err = System.err;
    /** Null: ask the console when the command runs (looking it up at construction slows every start-up). */
    Boolean terminal;
    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() {
        if (!Files.isReadable(file)) {
            err.println("Cannot read " + file + ".");
            return 2;
        }
        try (CosmosAsyncClient client = account.client()) {
            List<String> paths = createWithKey != null ? keyPaths(createWithKey)
                    : client.getDatabase(account.database).getContainer(account.container).read().block()
                            .getProperties().getPartitionKeyDefinition().getPaths();
            List<JsonLines.Line> bad = new ArrayList<>();
            long good = check(paths, bad);
            if (!bad.isEmpty()) {
                report(bad, badLines == BadLines.FAIL ? "bad line" : "skipped line");
                if (badLines == BadLines.FAIL) {
                    err.println("Nothing was written: " + bad.size() + " bad line(s). Fix them or pass --bad-lines skip.");
                    return 2;
                }
            }
            CosmosAsyncContainer container = container(client, paths);
            Progress progress = new Progress(err, terminal != null ? terminal : System.console() != null, clock, "items", good);
            List<String> failures = new ArrayList<>();
            Thread interrupted = new Thread(() -> err.println(System.lineSeparator() + "Interrupted after "
                    + progress.items() + " items; each is whole. Rerun to finish: upserts converge."));
            Runtime.getRuntime().addShutdownHook(interrupted);
            Flux<CosmosItemOperation> operations = Flux.fromStream(() -> lines(file, paths))
                    .filter(line -> !line.isBad())
                    .map(line -> CosmosBulkOperations.getUpsertItemOperation(line.item(),
                            JsonLines.partitionKey(line.item(), paths), line.number()));
            container.executeBulkOperations(operations).doOnNext(r -> record(r, progress, failures)).blockLast();
            Runtime.getRuntime().removeShutdownHook(interrupted);
            progress.done();
            out.printf("Imported %,d items (%,.1f RU)%s.%n", progress.items(), progress.charge(),
                    bad.isEmpty() ? "" : ", skipped " + bad.size() + " bad line(s)");
            if (!failures.isEmpty()) {
                err.println(failures.size() + " item(s) failed after the SDK's retries:");
                failures.stream().limit(REPORTED).forEach(err::println);
                return 1;
            }
            return 0;
        } catch (CosmosException e) {
            err.println("Import failed: status " + e.getStatusCode() + ": " + e.getShortMessage());
            return 1;
        }
    }

    private static List<String> keyPaths(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).toList();
    }

    private CosmosAsyncContainer container(CosmosAsyncClient client, List<String> paths) {
        if (createWithKey != null) {
            client.createDatabaseIfNotExists(account.database).block();
            PartitionKeyDefinition key = new PartitionKeyDefinition();
            key.setPaths(paths);
            if (paths.size() > 1) {
                key.setKind(PartitionKind.MULTI_HASH);
            }
            key.setVersion(PartitionKeyDefinitionVersion.V2);
            client.getDatabase(account.database)
                    .createContainerIfNotExists(new CosmosContainerProperties(account.container, key)).block();
        }
        return client.getDatabase(account.database).getContainer(account.container);
    }

    private static void record(CosmosBulkOperationResponse<Object> r, Progress progress, List<String> failures) {
        CosmosBulkItemResponse response = r.getResponse();
        if (response != null && response.isSuccessStatusCode()) {
            progress.add(1, response.getRequestCharge());
            return;
        }
        Object line = r.getOperation().getContext();
        String why = response != null ? "status " + response.getStatusCode() + "/" + response.getSubStatusCode()
                : r.getException() instanceof CosmosException e ? "status " + e.getStatusCode() + "/" + e.getSubStatusCode()
                : String.valueOf(r.getException());
        synchronized (failures) {
            failures.add("line " + line + ": " + why);
        }
    }

    /** Counts the importable lines and collects the bad ones. */
    private long check(List<String> paths, List<JsonLines.Line> bad) {
        long[] good = {0};
        try (var lines = lines(file, paths)) {
            lines.forEach(line -> {
                if (line.isBad()) {
                    bad.add(line);
                } else {
                    good[0]++;
                }
            });
        }
        return good[0];
    }

    private void report(List<JsonLines.Line> bad, String what) {
        bad.stream().limit(REPORTED).forEach(l -> err.println(what + " " + l.number() + ": " + l.problem()));
        if (bad.size() > REPORTED) {
            err.println("... and " + (bad.size() - REPORTED) + " more");
        }
    }

    /** The file's non-blank lines, parsed, numbered from 1. */
    static java.util.stream.Stream<JsonLines.Line> lines(Path file, List<String> paths) {
        try {
            BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            long[] number = {0};
            return reader.lines().map(text -> {
                number[0]++;
                return text.isBlank() ? null : JsonLines.parse(number[0], text, paths);
            }).filter(java.util.Objects::nonNull).onClose(() -> {
                try {
                    reader.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Accepts skip/fail in any case. */
    static final class BadLinesConverter implements picocli.CommandLine.ITypeConverter<BadLines> {
        @Override
        public BadLines convert(String value) {
            return BadLines.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
        }
    }
}
