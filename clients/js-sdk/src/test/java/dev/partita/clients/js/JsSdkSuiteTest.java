package dev.partita.clients.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The official JavaScript SDK ({@code @azure/cosmos}, the version pinned in {@code package-lock.json}) judges Partita:
 * runs {@code node --test} over {@code test/*.test.mjs} against an in-process Partita serving plain HTTP on a free
 * loopback port, and passes when node exits 0. A second Partita that gives a request no time at all
 * ({@code PARTITA_HURRIED_ENDPOINT}) serves the scenarios of pages cut at the deadline.
 *
 * <p>Scenarios listed in {@code known-failures.json} (name: why) are skipped by the test files; that file is the to-do
 * list of what Partita still answers differently from what the SDK expects. Run them anyway with
 * {@code -Dpartita.js.runKnownFailures=true}; run only some files with {@code -Dpartita.js.tests=test/items.test.mjs}.
 *
 * <p>Node (20 or newer) and npm must be on the PATH. {@code npm ci} runs whenever {@code node_modules} is missing or was
 * installed from another {@code package.json}/{@code package-lock.json} than the current ones.
 */
class JsSdkSuiteTest {
    static final Duration NPM_TIMEOUT = Duration.ofMinutes(10);
    static final Duration SUITE_TIMEOUT = Duration.ofMinutes(15);
    /** Written into node_modules after a successful {@code npm ci}: the hash of the manifests it installed from. */
    static final String STAMP = ".partita-installed-from";
    static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win");

    final Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    /** Test files to run instead of all of test/ (comma or space separated), e.g. test/items.test.mjs. */
    final String only = System.getProperty("partita.js.tests", "").trim();

    @Test
    void theJavaScriptSdkSuitePasses() throws Exception {
        requireTool("node");
        requireTool(npm());
        installDependencies();

        Path scenarioLog = Files.createTempFile("partita-js-scenarios", ".txt");
        int exit;
        Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(),
                Limits.DEFAULTS.toBuilder().ttlSweepInterval(Duration.ofSeconds(1)).build());
        Engine hurriedEngine = Engine.open(new MemoryStore(), Clock.systemUTC(),
                Limits.DEFAULTS.toBuilder().maxRequestExecution(Duration.ZERO).build());
        try {
            engine.startBackgroundTasks();
            try (PartitaServer server = PartitaServer.start(engine,
                    new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false));
                    PartitaServer hurried = PartitaServer.start(hurriedEngine,
                            new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false))) {
                List<String> command = new ArrayList<>(List.of("node", "--test", "--test-reporter=spec"));
                command.addAll(only.isEmpty() ? List.of("test/") : List.of(only.split("[,\\s]+")));
                ProcessBuilder pb = new ProcessBuilder(command).directory(module.toFile()).redirectErrorStream(true);
                Map<String, String> env = pb.environment();
                env.put("PARTITA_ENDPOINT", server.endpoint());
                env.put("PARTITA_KEY", Keys.EMULATOR_PRIMARY);
                env.put("PARTITA_HURRIED_ENDPOINT", hurried.endpoint());
                env.put("PARTITA_SCENARIO_LOG", scenarioLog.toString());
                env.put("PARTITA_RUN_KNOWN_FAILURES", System.getProperty("partita.js.runKnownFailures", "false"));
                env.put("NO_COLOR", "1");
                System.out.println("[js-sdk] " + String.join(" ", command) + "  (PARTITA_ENDPOINT=" + server.endpoint()
                        + ")");
                exit = run(pb, SUITE_TIMEOUT, "[js-sdk] ");
            }
        } finally {
            engine.close();
            hurriedEngine.close();
        }
        assertThat(exit).as("node --test exit code: a failing scenario is printed above. If it fails because Partita"
                + " does not do something yet, add it to known-failures.json with what Partita answered").isZero();

        Set<String> registered = new LinkedHashSet<>(Files.readAllLines(scenarioLog, StandardCharsets.UTF_8));
        Files.deleteIfExists(scenarioLog);
        JsonNode known = new ObjectMapper().readTree(module.resolve("known-failures.json").toFile());
        assertThat(known.isObject()).as("known-failures.json is an object: scenario name -> reason").isTrue();
        List<String> unknownNames = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = known.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            assertThat(e.getValue().isTextual() && !e.getValue().asText().isBlank())
                    .as("known failure '%s' needs a one-line reason", e.getKey()).isTrue();
            if (!registered.contains(e.getKey())) {
                unknownNames.add(e.getKey());
            }
        }
        if (only.isEmpty()) {
            assertThat(unknownNames).as("known-failures.json names scenarios that no test file declares").isEmpty();
        }
    }

    /** {@code npm ci} unless node_modules was installed from exactly the current package.json and lock file. */
    void installDependencies() throws IOException, InterruptedException {
        Path lock = module.resolve("package-lock.json");
        assertThat(lock).as("package-lock.json (commit it: npm ci installs from it)").exists();
        String wanted = sha256(Files.readAllBytes(module.resolve("package.json")), Files.readAllBytes(lock));
        Path stamp = module.resolve("node_modules").resolve(STAMP);
        if (Files.exists(stamp) && Files.readString(stamp).trim().equals(wanted)
                && Files.isDirectory(module.resolve("node_modules/@azure/cosmos"))) {
            return;
        }
        System.out.println("[js-sdk] node_modules is missing or stale: npm ci");
        ProcessBuilder pb = new ProcessBuilder(npm(), "ci", "--engine-strict=false", "--no-audit", "--no-fund")
                .directory(module.toFile()).redirectErrorStream(true);
        int exit = run(pb, NPM_TIMEOUT, "[npm] ");
        if (exit != 0) {
            fail("npm ci failed (exit " + exit + ") in " + module + ": see its output above");
        }
        Files.writeString(stamp, wanted + "\n");
    }

    /** Fails with a clear message if the tool cannot be started. */
    static void requireTool(String tool) throws InterruptedException {
        String version;
        try {
            Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
            version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                fail("'" + tool + " --version' did not succeed: " + version);
            }
        } catch (IOException e) {
            fail("The JavaScript SDK suite needs Node.js 20+ and npm on the PATH, but '" + tool
                    + "' could not be started (" + e.getMessage() + "). Install Node.js (e.g. apt-get install nodejs"
                    + " npm) or skip this module with -pl '!clients/js-sdk'.");
            return;
        }
        System.out.println("[js-sdk] " + tool + " " + version);
        if (tool.equals("node")) {
            int major = Integer.parseInt(version.replaceFirst("^v(\\d+).*$", "$1"));
            assertThat(major).as("Node.js major version (the suite needs 20 or newer)").isGreaterThanOrEqualTo(20);
        }
    }

    static String npm() {
        return WINDOWS ? "npm.cmd" : "npm";
    }

    /** Runs the process, copying each output line to the Maven log as it comes; kills it after the timeout. */
    static int run(ProcessBuilder pb, Duration timeout, String prefix) throws IOException, InterruptedException {
        Process p = pb.start();
        p.getOutputStream().close();
        Thread pump = Thread.ofPlatform().daemon().name("js-sdk-output").start(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    System.out.println(prefix + line);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            pump.join(5_000);
            fail(String.join(" ", pb.command()) + " did not finish within " + timeout);
        }
        pump.join(30_000);
        return p.exitValue();
    }

    static String sha256(byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                md.update(part);
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
