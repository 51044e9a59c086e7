package dev.partita.cli.tools;

import dev.partita.core.request.RequestOptions;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosQueryRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code partita export}: writes a container's items (or a query's rows) as JSON Lines. The file is written beside
 * its destination and moved into place only when complete, so an interrupted export never leaves a partial file.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write a container's items as JSON Lines (through the official SDK).")
public final class ExportCommand implements Callable<Integer> {
    private static final int PAGE = 1_000;

    @Mixin
    AccountOptions account;

    @Parameters(index = "0", paramLabel = "FILE", description = "Destination (written whole or not at all).")
    Path file;

    @Option(names = "--query", description = "Query whose rows to export (default: ${DEFAULT-VALUE}).")
    String query = "SELECT * FROM c";

    @Option(names = "--system-properties", description = "Keep _rid, _self, _etag, _attachments and _ts "
            + "(default: left out, so the file imports cleanly elsewhere).")
    boolean systemProperties;

    PrintStream out = System.out;
    PrintStream err = System.err;
    /** Null: ask the console when the command runs (looking it up at construction slows every start-up). */
    Boolean terminal;
    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() throws IOException {
        Path target = file.toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try (CosmosAsyncClient client = account.client()) {
            CosmosAsyncContainer container = client.getDatabase(account.database).getContainer(account.container);
            Progress progress = new Progress(err, terminal != null ? terminal : System.console() != null, clock, "items", -1);
            try (BufferedWriter writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                for (FeedResponse<ObjectNode> page : container
                        .queryItems(query, new CosmosQueryRequestOptions(), ObjectNode.class)
                        .byPage(PAGE).toIterable()) {
                    for (ObjectNode item : page.getResults()) {
                        writer.write(JsonLines.MAPPER.writeValueAsString(
                                systemProperties ? item : JsonLines.withoutSystemProperties(item)));
                        writer.newLine();
                    }
                    progress.add(page.getResults().size(), page.getRequestCharge());
                }
            } catch (CosmosException | UncheckedIOException e) {
                Files.deleteIfExists(partial);
                err.println("Export failed, nothing written: " + (e instanceof CosmosException c
                        ? "status " + c.getStatusCode() + ": " + c.getShortMessage() : e.getMessage()));
                return 1;
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            progress.done();
            out.printf("Exported %,d items to %s (%,.1f RU).%n", progress.items(), target, progress.charge());
            return 0;
        }
    }
}
