package dev.partita.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code partita serve}'s options, read without picocli: every documented form, and clear refusals. */
class ServeArgumentsTest {

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        ServeArguments a = ServeArguments.parse();
        assertThat(a.port).isEqualTo(8081);
        assertThat(a.host).isEqualTo("localhost");
        assertThat(a.http).isFalse();
        assertThat(a.data).isEqualTo(Path.of("partita-data"));
        assertThat(a.limits()).isEqualTo(Limits.DEFAULTS);
        assertThat(a.changesLimits()).isFalse();
        assertThat(a.defaultConsistency).isEqualTo(Consistency.SESSION);
    }

    @Test
    void theBannerKnowsWhenAFlagChangedALimit() {
        assertThat(ServeArguments.parse("--limits-scale", "1/10").changesLimits()).isTrue();
        assertThat(ServeArguments.parse("--limit", "maxLogicalPartitionBytes=1048576").changesLimits()).isTrue();
        assertThat(ServeArguments.parse("--http", "--in-memory").changesLimits()).isFalse();
    }

    @Test
    void aPortInUseIsRefusedAndTheStoreIsLeftClosed(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServeArguments a = ServeArguments.parse("--http", "--port", String.valueOf(taken.getLocalPort()),
                    "--data", dir.toString());
            assertThatThrownBy(() -> ServeCommand.start(a, a.limits())).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("Could not listen on localhost:" + taken.getLocalPort());
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = ServeCommand.run(new String[] {"--http", "--port", String.valueOf(taken.getLocalPort()),
                "--data", dir.toString()}, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
            assertThat(code).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("partita serve: Could not listen on");
        }
        // the first start's store was closed before its refusal: another start can open it at once
        ServeArguments again = ServeArguments.parse("--http", "--port", "0", "--data", dir.toString());
        try (ServeCommand.Running running = ServeCommand.start(again, again.limits())) {
            assertThat(running.server().port()).isPositive();
        }
    }

    @Test
    void everyOptionIsReadInBothForms() {
        ServeArguments a = ServeArguments.parse("--port", "0", "--host=0.0.0.0", "--http", "--data", "/tmp/x",
                "--in-memory", "--no-auth", "--enforce-capacity", "--burst-capacity", "--serverless",
                "--limits-scale=1/1000", "--limit", "maxLogicalPartitionBytes=1048576",
                "--default-consistency", "boundedStaleness");
        assertThat(a.port).isZero();
        assertThat(a.defaultConsistency).isEqualTo(Consistency.BOUNDED_STALENESS);
        assertThat(ServeArguments.parse("--default-consistency=Strong").defaultConsistency)
                .isEqualTo(Consistency.STRONG);
        assertThat(a.host).isEqualTo("0.0.0.0");
        assertThat(a.http && a.inMemory && a.noAuth && a.enforceCapacity && a.burstCapacity && a.serverless)
                .isTrue();
        assertThat(a.data).isEqualTo(Path.of("/tmp/x"));
        assertThat(a.limits().maxLogicalPartitionBytes()).isEqualTo(1_048_576L);
        assertThat(a.limits().maxPhysicalPartitionBytes())
                .isEqualTo(Limits.DEFAULTS.scaled(0.001).maxPhysicalPartitionBytes());
    }

    @Test
    void wrongInputIsRefusedWithTheReasonAndTheUsage() {
        assertThatThrownBy(() -> ServeArguments.parse("--prot", "1")).hasMessageContaining("Unknown option: '--prot'");
        assertThatThrownBy(() -> ServeArguments.parse("--port")).hasMessageContaining("Missing required parameter");
        assertThatThrownBy(() -> ServeArguments.parse("--port", "x")).hasMessageContaining("--port needs a number");
        assertThatThrownBy(() -> ServeArguments.parse("--http=yes")).hasMessageContaining("takes no value");
        assertThatThrownBy(() -> ServeArguments.parse("--limit", "x")).hasMessageContaining("NAME=VALUE");
        assertThatThrownBy(() -> ServeArguments.parse("--default-consistency", "Linearizable"))
                .hasMessageContaining("--default-consistency takes Strong");
        assertThatThrownBy(() -> ServeArguments.parse("--limits-scale", "a/b").limits())
                .hasMessageContaining("a fraction like 1/1000");

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ServeCommand.run(new String[] {"--limit", "noSuchLimit=1"}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("There is no limit named 'noSuchLimit'")
                .contains("Usage: partita serve");
    }

    @Test
    void helpListsEveryOption() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ServeCommand.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err)).isZero();
        String help = out.toString(StandardCharsets.UTF_8);
        for (ServeArguments.Option o : ServeArguments.OPTIONS) {
            assertThat(help).contains(o.name());
        }
    }
}
