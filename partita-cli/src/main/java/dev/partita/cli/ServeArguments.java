package dev.partita.cli;

import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code partita serve}, read without picocli: building picocli's command model is the largest single
 * cost of a server's start-up (~0.2 s of interpreted reflection before anything else can start, measured in
 * BENCHMARKS.md), and a server's dozen flags need none of its power. Accepts {@code --name value} and
 * {@code --name=value}, like the other commands.
 */
final class ServeArguments {

    /** One option: its name, the value it takes (null for a flag) and its help line. */
    record Option(String name, String param, String help) {
    }

    static final List<Option> OPTIONS = List.of(
            new Option("--port", "PORT", "Port to listen on (default: 8081; 0 = any free port)."),
            new Option("--host", "HOST", "Address to bind (default: localhost)."),
            new Option("--http", null, "Serve plain HTTP instead of HTTPS."),
            new Option("--data", "DIR", "Data folder of the durable store and the TLS certificate"
                    + " (default: partita-data)."),
            new Option("--in-memory", null, "Keep everything in memory; nothing survives a restart."),
            new Option("--no-auth", null, "Accept requests without checking their signature (local tinkering"
                    + " only)."),
            new Option("--enforce-capacity", null, "Throttle (429) requests beyond a physical partition's RU/s"
                    + " budget, as the service does. Off by default: charges are always computed and returned."),
            new Option("--burst-capacity", null, "Let idle partitions bank burst capacity (the account feature)."),
            new Option("--serverless", null, "Behave as a serverless account: no provisioned throughput."),
            new Option("--default-consistency", "LEVEL", "The account's default consistency: Strong,"
                    + " BoundedStaleness, Session (default), ConsistentPrefix or Eventual. Requests may only ask"
                    + " for a weaker level."),
            new Option("--limits-scale", "FACTOR", "Scale the partition storage limits (20 GB logical, 50 GB"
                    + " physical) for simulations, e.g. 1/1000 or 0.001."),
            new Option("--limit", "NAME=VALUE", "Set one limit, e.g. --limit maxLogicalPartitionBytes=1048576 or"
                    + " --limit throughputSplitDelay=PT5M (repeatable; applied after --limits-scale)."),
            new Option("-h, --help", null, "Show this help message and exit."),
            new Option("-V, --version", null, "Print version information and exit."));

    private static final int HELP_COLUMN = 26;
    private static final int HELP_WIDTH = 100;

    int port = 8081;
    String host = "localhost";
    boolean http;
    Path data = Path.of("partita-data");
    boolean inMemory;
    boolean noAuth;
    boolean enforceCapacity;
    boolean burstCapacity;
    boolean serverless;
    Consistency defaultConsistency = Consistency.SESSION;
    String limitsScale;
    final Map<String, String> limitOverrides = new LinkedHashMap<>();
    boolean help;
    boolean version;

    /** Reads {@code args}; a wrong one is an {@link IllegalArgumentException} whose message says what to change. */
    static ServeArguments parse(String... args) {
        ServeArguments a = new ServeArguments();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String inline = eq < 0 ? null : arg.substring(eq + 1);
            switch (name) {
                case "--http" -> a.http = flag(name, inline);
                case "--in-memory" -> a.inMemory = flag(name, inline);
                case "--no-auth" -> a.noAuth = flag(name, inline);
                case "--enforce-capacity" -> a.enforceCapacity = flag(name, inline);
                case "--burst-capacity" -> a.burstCapacity = flag(name, inline);
                case "--serverless" -> a.serverless = flag(name, inline);
                case "-h", "--help" -> a.help = flag(name, inline);
                case "-V", "--version" -> a.version = flag(name, inline);
                default -> {
                    if (OPTIONS.stream().noneMatch(o -> o.param() != null && o.name().equals(name))) {
                        throw new IllegalArgumentException("Unknown option: '" + arg + "'");
                    }
                    String value = inline;
                    if (value == null) {
                        if (i + 1 == args.length) {
                            throw new IllegalArgumentException("Missing required parameter for option '" + name
                                    + "'");
                        }
                        value = args[++i];
                    }
                    a.set(name, value);
                }
            }
        }
        return a;
    }

    private static boolean flag(String name, String inline) {
        if (inline != null) {
            throw new IllegalArgumentException("The option '" + name + "' takes no value");
        }
        return true;
    }

    private void set(String name, String value) {
        switch (name) {
            case "--port" -> port = port(value);
            case "--host" -> host = value;
            case "--data" -> data = Path.of(value);
            case "--limits-scale" -> limitsScale = value;
            case "--default-consistency" -> {
                defaultConsistency = Consistency.named(value);
                if (defaultConsistency == null) {
                    throw new IllegalArgumentException("--default-consistency takes Strong, BoundedStaleness,"
                            + " Session, ConsistentPrefix or Eventual; got '" + value + "'");
                }
            }
            case "--limit" -> {
                int eq = value.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--limit needs NAME=VALUE; got '" + value + "'");
                }
                limitOverrides.put(value.substring(0, eq), value.substring(eq + 1));
            }
            default -> throw new IllegalStateException("an option without a field: " + name);
        }
    }

    private static int port(String value) {
        try {
            int p = Integer.parseInt(value);
            if (p >= 0 && p <= 65_535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException("--port needs a number from 0 to 65535; got '" + value + "'");
    }

    /** True when a flag changes a limit (a record's equals would spin method handles at start-up, ~20 ms). */
    boolean changesLimits() {
        return limitsScale != null || !limitOverrides.isEmpty();
    }

    /** The limits the flags ask for. */
    Limits limits() {
        Limits l = Limits.DEFAULTS;
        if (limitsScale != null) {
            l = l.scaled(parseFactor(limitsScale));
        }
        for (Map.Entry<String, String> e : limitOverrides.entrySet()) {
            l = l.with(e.getKey(), e.getValue());
        }
        return l;
    }

    static double parseFactor(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            return slash < 0 ? Double.parseDouble(t)
                    : Double.parseDouble(t.substring(0, slash)) / Double.parseDouble(t.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--limits-scale needs a number or a fraction like 1/1000; got '"
                    + text + "'.");
        }
    }

    /** The help text. */
    static String usage() {
        StringBuilder b = new StringBuilder("Usage: partita serve [OPTIONS]\n").append(ServeCommand.SUMMARY)
                .append("\n");
        for (Option o : OPTIONS) {
            String left = "  " + o.name() + (o.param() == null ? "" : " " + o.param());
            b.append(left).append(" ".repeat(Math.max(1, HELP_COLUMN - left.length())));
            int column = HELP_COLUMN;
            for (String word : o.help().split(" ")) {
                if (column > HELP_COLUMN && column + 1 + word.length() > HELP_WIDTH) {
                    b.append('\n').append(" ".repeat(HELP_COLUMN));
                    column = HELP_COLUMN;
                }
                if (column > HELP_COLUMN) {
                    b.append(' ');
                    column++;
                }
                b.append(word);
                column += word.length();
            }
            b.append('\n');
        }
        return b.toString();
    }
}
