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
        // `serve` skips building the whole command tree: picocli instantiates every sub-command (and the SDK classes
        // the tools reference) before parsing, which a server start-up should not pay for
        int code = args.length > 0 && args[0].equals("serve")
                ? new CommandLine(new ServeCommand()).setCommandName("partita serve")
                        .execute(java.util.Arrays.copyOfRange(args, 1, args.length))
                : new CommandLine(new PartitaCommand()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
