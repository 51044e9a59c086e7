package dev.partita.cli;

import dev.partita.cli.advise.AdviseCommand;
import dev.partita.cli.migrate.MigrateCommand;
import dev.partita.cli.tools.ExportCommand;
import dev.partita.cli.tools.ImportCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code partita} command: one sub-command per tool. */
@Command(name = "partita", mixinStandardHelpOptions = true, version = PartitaCommand.VERSION,
        description = "A partition-faithful emulator of Azure Cosmos DB for NoSQL.",
        subcommands = {PartitaCommand.Serve.class, AdviseCommand.class, MigrateCommand.class, ImportCommand.class,
                ExportCommand.class})
public final class PartitaCommand implements Runnable {
    static final String VERSION = "partita 0.1.0";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code serve} in the command tree, for the help; {@link #main} runs it without the tree. */
    @Command(name = "serve", description = ServeCommand.SUMMARY + " See partita serve --help.")
    static final class Serve implements Callable<Integer> {
        @CommandLine.Unmatched
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() {
            return ServeCommand.run(args.toArray(String[]::new), System.out, System.err);
        }
    }

    public static void main(String[] args) {
        // `serve` starts without picocli: building its command model costs a server ~0.2 s of start-up (ServeArguments);
        // `train` (hidden) must load what `serve` loads and nothing else, not the tools' SDK classes the tree references
        String command = args.length > 0 ? args[0] : "";
        int code = switch (command) {
            case "serve" -> ServeCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err);
            case "train" -> TrainCommand.run();
            default -> new CommandLine(new PartitaCommand()).execute(args);
        };
        if (code != 0) {
            System.exit(code);
        }
    }
}
