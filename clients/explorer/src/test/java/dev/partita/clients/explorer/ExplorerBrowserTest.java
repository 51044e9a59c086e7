package dev.partita.clients.explorer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Throughput;
import dev.partita.core.json.Json;
import dev.partita.core.limits.Limits;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.core.request.RequestOptions;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The data explorer in a real browser: {@code node --test test/} drives headless Chromium with Playwright
 * ({@code playwright-core}, pinned in {@code package-lock.json}) against an in-process Partita on loopback holding a
 * small shop (container {@code orders}, 400 RU/s, throughput enforced), and passes when node exits 0. Screenshots go
 * to {@code target/screenshots}.
 *
 * <p>Installs what it needs when missing: Debian's {@code chromium} ({@code apt-get install -y chromium}, as root) and
 * {@code npm ci} (whenever {@code node_modules} was installed from other manifests). Node 20+ and npm must be on the
 * PATH.
 */
class ExplorerBrowserTest {
    static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);
    static final Duration SUITE_TIMEOUT = Duration.ofMinutes(3);
    static final String STAMP = ".partita-installed-from";
    final Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();

    @Test
    void theExplorerWorksInABrowser() throws Exception {
        String chromium = chromium();
        installDependencies();
        Engine engine = Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS);
        int exit;
        try (PartitaServer server = PartitaServer.start(engine,
                new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false))) {
            shop(engine);
            ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=spec", "--test-concurrency=1",
                    "test/").directory(module.toFile()).redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("PARTITA_ENDPOINT", server.endpoint());
            env.put("PARTITA_KEY", Keys.EMULATOR_PRIMARY);
            env.put("PARTITA_SCREENSHOTS", module.resolve("target/screenshots").toString());
            env.put("CHROMIUM", chromium);
            env.put("NO_COLOR", "1");
            exit = run(pb, SUITE_TIMEOUT, "[explorer] ");
        } finally {
            engine.close();
        }
        assertThat(exit).as("node --test exit code: the failing step is printed above").isZero();
        assertThat(module.resolve("target/screenshots/heatmap-split.png")).exists();
    }

    /** A database {@code shop} with {@code orders} (/tenant, 400 RU/s, 429s on): 30 orders of 5 tenants. */
    static void shop(Engine engine) {
        engine.createDatabase(Json.parseObject(utf8("{\"id\":\"shop\"}"), "db"), Throughput.NONE);
        ContainerInfo orders = engine.createContainer("shop", Json.parseObject(utf8("{\"id\":\"orders\","
                + "\"partitionKey\":{\"paths\":[\"/tenant\"],\"kind\":\"Hash\",\"version\":2}}"), "c"),
                Throughput.manual(400), 0);
        engine.capacity().enforce(orders, true);
        for (int i = 0; i < 30; i++) {
            ObjectNode doc = Json.object().put("id", "order-" + i).put("tenant", "tenant-" + i % 5)
                    .put("total", i * 3).put("status", "open");
            engine.container(orders).upsert(Json.bytes(doc), RequestOptions.of(
                    PartitionKeyValue.fromHeader("[\"tenant-" + i % 5 + "\"]")));
        }
        // the setup's charges are not part of what the test watches
        engine.capacity().restart(orders);
    }

    /** Debian's Chromium, installed with apt-get when missing (as root here and on CI). */
    static String chromium() throws Exception {
        for (String p : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(p))) {
                return p;
            }
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            fail("The explorer's browser tests need Chromium: apt-get install -y chromium (or skip the module with"
                    + " -pl '!clients/explorer').");
        }
        System.out.println("[explorer] Chromium is missing: apt-get install -y chromium");
        ProcessBuilder install = new ProcessBuilder("apt-get", "install", "-y", "-q", "chromium")
                .redirectErrorStream(true);
        install.environment().put("DEBIAN_FRONTEND", "noninteractive");
        if (run(install, INSTALL_TIMEOUT, "[apt] ") != 0) {
            run(new ProcessBuilder("apt-get", "update", "-q").redirectErrorStream(true), INSTALL_TIMEOUT, "[apt] ");
            assertThat(run(install, INSTALL_TIMEOUT, "[apt] ")).as("apt-get install -y chromium").isZero();
        }
        return "/usr/bin/chromium";
    }

    /** {@code npm ci} unless node_modules was installed from exactly the current package.json and lock file. */
    void installDependencies() throws Exception {
        String wanted = sha256(Files.readAllBytes(module.resolve("package.json")),
                Files.readAllBytes(module.resolve("package-lock.json")));
        Path stamp = module.resolve("node_modules").resolve(STAMP);
        if (Files.exists(stamp) && Files.readString(stamp).trim().equals(wanted)) {
            return;
        }
        System.out.println("[explorer] node_modules is missing or stale: npm ci");
        int exit = run(new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(module.toFile())
                .redirectErrorStream(true), INSTALL_TIMEOUT, "[npm] ");
        assertThat(exit).as("npm ci in " + module).isZero();
        Files.writeString(stamp, wanted + "\n");
    }

    /** Runs the process, copying each output line to the Maven log as it comes; kills it after the timeout. */
    static int run(ProcessBuilder pb, Duration timeout, String prefix) throws IOException, InterruptedException {
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            fail("Could not start " + pb.command().get(0) + " (" + e.getMessage() + "); the explorer's browser tests"
                    + " need Node.js 20+ and npm on the PATH");
            return -1;
        }
        p.getOutputStream().close();
        Thread pump = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    System.out.println(prefix + line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            fail(String.join(" ", pb.command()) + " did not finish within " + timeout);
        }
        pump.join(10_000);
        return p.exitValue();
    }

    static String sha256(byte[]... parts) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (byte[] part : parts) {
            md.update(part);
            md.update((byte) 0);
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
