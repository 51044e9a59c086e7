package dev.partita.cli.tools;

import dev.partita.core.request.RequestOptions;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Conditions;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.Scope;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code partita import} and {@code export} against a running Partita, through the official SDK. */
class ImportExportTest {
    static Engine engine;
    static PartitaServer server;

    @TempDir
    Path dir;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void start() {
        engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        server = PartitaServer.start(engine, new ServerOptions("localhost", 0, false, null, Keys.emulator(), false));
    }

    @AfterAll
    static void stop() {
        server.close();
        engine.close();
    }

    @Test
    void aBadLineStopsTheImportBeforeAnythingIsWritten() throws IOException {
        Path file = write("good.jsonl", item(1), "{\"id\": \"broken\", ", item(2), "[1, 2]", "{\"name\":\"no id\"}");
        int code = importing(file, "--database", "strictdb", "--container", "strict", "--create-with-key", "/pk");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("bad line 2: not valid JSON").contains("bad line 4: not a JSON object")
                .contains("bad line 5: no string \"id\" property").contains("Nothing was written");
        assertThat(err.toString()).doesNotContain("broken");   // reasons never quote the line's values
        assertThat(engine.listDatabases()).noneMatch(d -> d.id().equals("strictdb"));
    }

    @Test
    void skippedLinesAreReportedAndTheRestIsImportedOnceEvenWhenRerun() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            lines.add(i == 7 ? "not json" : item(i));
        }
        Path file = write("items.jsonl", lines.toArray(String[]::new));
        String[] args = {"--database", "shop", "--container", "items", "--create-with-key", "/pk", "--bad-lines", "skip"};
        assertThat(importing(file, args)).isZero();
        assertThat(err.toString()).contains("skipped line 8: not valid JSON");
        assertThat(out.toString()).contains("Imported 249 items");
        assertThat(importing(file, args)).isZero();
        assertThat(count("shop", "items")).isEqualTo(249);
        JsonNode stored = engine.container("shop", "items")
                .read("i13", RequestOptions.of(PartitionKeyValue.fromHeader("[\"p3\"]"))).item().jsonString()
                .transform(s -> dev.partita.core.json.Json.parse(s, "item"));
        assertThat(stored.get("n").asInt()).isEqualTo(13);
    }

    @Test
    void hierarchicalKeysComeFromEachItem() throws IOException {
        Path file = write("h.jsonl", "{\"id\":\"a\",\"tenant\":\"t1\",\"user\":\"u1\"}",
                "{\"id\":\"a\",\"tenant\":\"t1\",\"user\":\"u2\"}", "{\"id\":\"b\",\"tenant\":\"t2\"}");
        assertThat(importing(file, "--database", "h", "--container", "events", "--create-with-key", "/tenant,/user",
                "--bad-lines", "skip")).isZero();
        assertThat(err.toString()).contains("skipped line 3: no value at partition key path /user");
        assertThat(count("h", "events")).isEqualTo(2);
        assertThat(engine.container("h", "events").read("a", RequestOptions.of(PartitionKeyValue.fromHeader("[\"t1\",\"u2\"]"))).status()).isEqualTo(200);
    }

    @Test
    void exportWritesEveryItemWithoutSystemPropertiesAndImportsBackIdentically() throws IOException {
        Path source = write("src.jsonl", item(1), item(2), item(3));
        assertThat(importing(source, "--database", "round", "--container", "a", "--create-with-key", "/pk")).isZero();
        Path exported = dir.resolve("out.jsonl");
        assertThat(exporting(exported, "--database", "round", "--container", "a")).isZero();
        List<String> lines = Files.readAllLines(exported);
        assertThat(lines).hasSize(3).noneMatch(l -> l.contains("_rid") || l.contains("_etag"));
        assertThat(lines.stream().map(l -> dev.partita.core.json.Json.parse(l, "line")).toList())
                .containsExactlyInAnyOrderElementsOf(List.of(item(1), item(2), item(3)).stream()
                        .map(l -> dev.partita.core.json.Json.parse(l, "line")).toList());
        assertThat(importing(exported, "--database", "round", "--container", "b", "--create-with-key", "/pk"))
                .isZero();
        assertThat(count("round", "b")).isEqualTo(3);
    }

    @Test
    void aFailedExportLeavesNoFile() throws IOException {
        Path target = dir.resolve("missing.jsonl");
        assertThat(exporting(target, "--database", "nowhere", "--container", "none")).isEqualTo(1);
        assertThat(err.toString()).contains("Export failed, nothing written: status 404");
        assertThat(target).doesNotExist();
        assertThat(dir.resolve("missing.jsonl.partial")).doesNotExist();
    }

    @Test
    void progressIsAPlainLogLineWhenNotOnATerminal() throws IOException {
        Path file = write("p.jsonl", item(1));
        assertThat(importing(file, "--database", "p", "--container", "p", "--create-with-key", "/pk")).isZero();
        assertThat(err.toString()).contains("[##############################] 100%").doesNotContain("\r");
    }

    private int importing(Path file, String... args) {
        ImportCommand command = new ImportCommand();
        command.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        command.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        command.terminal = false;
        return new CommandLine(command).setErr(new java.io.PrintWriter(err, true)).execute(withEndpoint(file, args));
    }

    private int exporting(Path file, String... args) {
        ExportCommand command = new ExportCommand();
        command.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        command.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        command.terminal = false;
        return new CommandLine(command).setErr(new java.io.PrintWriter(err, true)).execute(withEndpoint(file, args));
    }

    private static String[] withEndpoint(Path file, String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoint", server.endpoint()));
        all.addAll(List.of(args));
        all.add(file.toString());
        return all.toArray(String[]::new);
    }

    private static String item(int i) {
        return "{\"id\":\"i" + i + "\",\"pk\":\"p" + i % 10 + "\",\"n\":" + i + ",\"tags\":[\"a\"]}";
    }

    private Path write(String name, String... lines) throws IOException {
        return Files.write(dir.resolve(name), List.of(lines));
    }

    private static long count(String db, String container) {
        ContainerInfo c = engine.readContainer(db, container);
        return engine.container(c).query("SELECT VALUE COUNT(1) FROM c", Map.of(), RequestOptions.scoped(Scope.CONTAINER)).rows().get(0)
                .asLong();
    }

}
