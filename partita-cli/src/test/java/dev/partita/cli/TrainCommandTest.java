package dev.partita.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The training session `./partita` runs for the JVM's start-up cache is itself an end-to-end check of the command
 * line: what `serve --http` starts on a fresh durable store, then signed writes, reads, queries, a batch and deletes
 * must all succeed (any answer of 400 or more fails it).
 */
class TrainCommandTest {

    @Test
    void theTrainingSessionRunsCleanly() {
        assertThat(TrainCommand.run()).isZero();
    }

    @Test
    void itIsHiddenFromTheHelp() {
        String usage = new CommandLine(new PartitaCommand()).getUsageMessage();
        assertThat(usage).contains("serve").doesNotContain("train");
    }
}
