package dev.partita.cli;

import dev.partita.cli.advise.AdviseCommand;
import dev.partita.cli.migrate.MigrateCommand;
import dev.partita.cli.tools.ExportCommand;
import dev.partita.cli.tools.ImportCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code partita} command: one sub-command per tool. */
@Command(name = "partita", mixinStandardHelpOptions = true, version = "partita 0.1.0",
        description = "A partition-faithful emulator of Azure Cosmos DB for NoSQL.",
        subcommands = {ServeCommand.class, AdviseCommand.class, MigrateCommand.class, ImportCommand.class,
                ExportCommand.class, TrainCommand.class})
public final class PartitaCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        int code = new CommandLine(new PartitaCommand()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
