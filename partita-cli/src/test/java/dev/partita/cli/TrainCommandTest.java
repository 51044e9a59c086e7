package dev.partita.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The training session `./partita` runs for the JVM's start-up cache is itself an end-to-end check of the command
 * line: a durable store, HTTPS with a fresh certificate, signed requests, writes, reads and queries must all succeed
 * (any answer of 400 or more fails the command).
 */
class TrainCommandTest {

    @Test
    void theTrainingSessionRunsCleanly() {
        CommandLine cli = new CommandLine(new PartitaCommand());
        assertThat(cli.execute("train")).isZero();
    }

    @Test
    void itIsHiddenFromTheHelp() {
        String usage = new CommandLine(new PartitaCommand()).getUsageMessage();
        assertThat(usage).contains("serve").doesNotContain("train");
    }
}
