package dev.partita.cli.migrate;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosAsyncDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.ThroughputControlGroupConfigBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKeyDefinition;
import com.azure.cosmos.models.PartitionKeyDefinitionVersion;
import com.azure.cosmos.models.PartitionKind;
import com.azure.cosmos.models.PriorityLevel;
import com.azure.cosmos.models.ThroughputProperties;
import dev.partita.cli.tools.AccountOptions;
import dev.partita.cli.tools.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code partita migrate}: copies a container into a new one with another partition key and/or indexing policy while
 * the source stays live, then verifies, optionally repairs, and writes a cutover marker. Rerunning it is always safe:
 * it resumes from its checkpoint, catches up, and verifies again.
 *
 * <p>Exit codes: 0 the target matches the source (and the marker is written when asked); 1 differences, write
 * failures or writes still arriving at cutover; 2 wrong arguments (missing source, key conflicts, checkpoint of
 * another migration).
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Copy a live container into a new one with another partition key and/or indexing policy: "
                + "bulk copy and change-feed catch-up (resumable), verification, optional repair and a cutover marker.",
                "Only reads the source. Deletes made in the source during the migration are not in the latest-version "
                + "change feed: verification lists them as 'only in the target' and --repair removes them."})
public final class MigrateCommand implements Callable<Integer> {
    private static final int DEFAULT_PASSES = 10;

    @Option(names = "--endpoint", description = "Account endpoint (default: ${DEFAULT-VALUE}).")
    String endpoint = "https://localhost:8081/";

    @Option(names = "--key", description = "Account key (default: the emulator's well-known key; or set PARTITA_KEY).",
            defaultValue = "${env:PARTITA_KEY}")
    String key;

    @Option(names = "--database", required = true, description = "The source's database.")
    String database;

    @Option(names = "--source-container", required = true, description = "The container to copy (only read).")
    String sourceContainer;

    @Option(names = "--target-database", description = "The target's database (default: the source's; created if "
            + "missing).")
    String targetDatabase;

    @Option(names = "--target-container", required = true, description = "The new container (created if missing).")
    String targetContainer;

    @Option(names = "--target-key", paramLabel = "PATHS", description = "The target's partition key, comma-separated "
            + "paths (e.g. /tenantId,/id for a hierarchical key; default: the source's).")
    String targetKey;

    @Option(names = "--target-indexing-policy", paramLabel = "FILE", description = "Indexing policy JSON for a new "
            + "target (default: the source's).")
    Path targetIndexingPolicy;

    @Option(names = "--target-throughput", paramLabel = "RU/s", description = "Manual throughput for a new target "
            + "(default: none given: the database's shared throughput or the service default).")
    Integer targetThroughput;

    @Option(names = "--verify-by", paramLabel = "PATH", description = "Also compare item counts per value of this "
            + "property (e.g. /status).")
    String verifyBy;

    @Option(names = "--max-ru-per-second", paramLabel = "N", description = "Client-side budget for the migration's "
            + "own requests, paced by the charges returned (default: 0 = unlimited; requests are low priority anyway).")
    double maxRuPerSecond;

    @Option(names = "--checkpoint-container", description = "Container (in the target's database, keyed /id, created "
            + "if missing) for the checkpoint and the cutover marker (default: ${DEFAULT-VALUE}).")
    String checkpointContainer = "migrations";

    @Option(names = "--migration-id", description = "Checkpoint id (default: <db>.<source>.to.<target db>.<target>).")
    String migrationId;

    @Option(names = "--page-size", description = "Items per change-feed page and bulk round (default: "
            + "${DEFAULT-VALUE}).")
    int pageSize = 100;

    @Option(names = "--max-catch-up-passes", description = "Catch-up passes before giving up on reaching zero "
            + "changes under live writes (default: ${DEFAULT-VALUE}); a rerun continues.")
    int maxPasses = DEFAULT_PASSES;

    @Option(names = "--repair", description = "Re-copy items that differ or are missing and delete target items the "
            + "source no longer has (each re-checked in the source first), then verify again.")
    boolean repair;

    @Option(names = "--no-verify", description = "Copy and catch up only (e.g. repeated catch-ups of a large "
            + "container before the cutover); verification reads both containers whole. Not with --repair or --cutover.")
    boolean noVerify;

    @Option(names = "--cutover", description = "After a catch-up with no change left and a clean verification, write "
            + "the cutover marker <migration id>.cutover into the checkpoint container. Stop writes to the source "
            + "first.")
    boolean cutover;

    PrintStream out = System.out;
    PrintStream err = System.err;
    /** Null: ask the console when the command runs (looking it up at construction slows every start-up). */
    Boolean terminal;
    Clock clock = Clock.systemUTC();
    RuBudget.Sleeper sleeper = Thread::sleep;
    Migration.Listener listener = copied -> { };
    /** The last run's verification, for tests. */
    Verification verification;
    /** The last run's budget, for tests. */
    RuBudget budget;

    @Override
    public Integer call() {
        if (noVerify && (repair || cutover)) {
            err.println("--no-verify cannot be combined with --repair or --cutover: both need a verification.");
            return 2;
        }
        String targetDb = targetDatabase == null ? database : targetDatabase;
        if (targetDb.equals(database) && targetContainer.equals(sourceContainer)) {
            err.println("The target must be another container: migrate never writes the source.");
            return 2;
        }
        String id = migrationId != null ? migrationId
                : database + "." + sourceContainer + ".to." + targetDb + "." + targetContainer;
        try (CosmosAsyncClient client = client()) {
            CosmosAsyncContainer source = client.getDatabase(database).getContainer(sourceContainer);
            CosmosContainerProperties sourceProps = source.read().block().getProperties();
            List<String> sourceKey = sourceProps.getPartitionKeyDefinition().getPaths();
            CosmosAsyncDatabase tdb = client.getDatabase(targetDb);
            client.createDatabaseIfNotExists(targetDb).block();
            CosmosContainerProperties targetProps = targetContainer(tdb, sourceProps);
            List<String> tKey = targetProps.getPartitionKeyDefinition().getPaths();
            if (targetKey != null && !tKey.equals(paths(targetKey))) {
                err.println("The target exists with the key " + tKey + ", not " + paths(targetKey)
                        + ": pick another target or drop --target-key.");
                return 2;
            }
            tdb.createContainerIfNotExists(new CosmosContainerProperties(checkpointContainer, "/id")).block();
            CheckpointStore store = new CheckpointStore(tdb.getContainer(checkpointContainer));
            String src = database + "/" + sourceContainer;
            String tgt = targetDb + "/" + targetContainer;
            Checkpoint checkpoint = store.load(id).orElse(new Checkpoint(id, Checkpoint.KIND, src, tgt, tKey,
                    List.of(), 0, false, clock.instant().toString()));
            if (!checkpoint.source().equals(src) || !checkpoint.target().equals(tgt)
                    || !checkpoint.targetKey().equals(tKey)) {
                err.println("Checkpoint " + id + " belongs to a migration of " + checkpoint.source() + " to "
                        + checkpoint.target() + " " + checkpoint.targetKey() + "; pass another --migration-id.");
                return 2;
            }
            if (checkpoint.copyDone()) {
                out.println("Resuming " + id + ": copy done, catching up.");
            } else if (!checkpoint.positions().isEmpty()) {
                out.println("Resuming " + id + " after " + checkpoint.copied() + " copied items.");
            }
            CosmosAsyncContainer target = tdb.getContainer(targetContainer);
            lowPriority(source);
            lowPriority(target);
            budget = new RuBudget(maxRuPerSecond, clock, sleeper);
            return migrate(source, target, store, checkpoint, sourceKey, tKey);
        } catch (Migration.WriteFailed e) {
            err.println(e.getMessage());
            return 1;
        } catch (CosmosException e) {
            err.println("Migration stopped: status " + e.getStatusCode() + "/" + e.getSubStatusCode() + ": "
                    + e.getShortMessage() + (e.getStatusCode() == 404 ? " (does the source exist?)" : "")
                    + " Rerun to resume from the last checkpoint.");
            return e.getStatusCode() == 404 ? 2 : 1;
        } catch (IOException | IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
    }

    private int migrate(CosmosAsyncContainer source, CosmosAsyncContainer target, CheckpointStore store,
            Checkpoint checkpoint, List<String> sourceKey, List<String> tKey) {
        Progress progress = new Progress(err, terminal != null ? terminal : System.console() != null, clock, "items", -1);
        Migration migration = new Migration(source, target, store, checkpoint, budget, clock, pageSize, listener,
                progress);
        long changes = catchUp(migration);
        progress.done();
        out.printf("Copied %,d item writes in all (%,.1f RU this run).%n", migration.checkpoint().copied(),
                budget.spent());
        if (noVerify) {
            out.println(changes == 0 ? "Caught up; not verified (--no-verify)."
                    : "Still " + changes + " change(s) in the last pass; rerun to continue.");
            return 0;
        }
        Verifier verifier = new Verifier(source, target, sourceKey, tKey, budget, pageSize);
        verification = verifier.verify(verifyBy);
        report(verification);
        if (!verification.clean() && repair) {
            List<String> todo = new ArrayList<>(verification.missing());
            todo.addAll(verification.different());
            todo.addAll(verification.extra());
            todo.addAll(verification.duplicated());
            out.printf("Repaired %d item(s) with %d target write(s); verifying again.%n", todo.size(),
                    verifier.repair(todo));
            changes = catchUp(migration);
            verification = verifier.verify(verifyBy);
            report(verification);
        }
        if (!verification.clean()) {
            err.println("The target does not match the source" + (changes > 0 ? " (writes are still arriving)" : "")
                    + (repair ? "." : "; rerun with --repair to fix it."));
            return 1;
        }
        if (cutover) {
            // a change that landed during verification would make the result stale: accept none
            long late = migration.pass();
            if (changes > 0 || late > 0) {
                err.println("No cutover: the source is still changing (" + late + " change(s) since verification). "
                        + "Stop writes to the source and rerun with --cutover.");
                return 1;
            }
            Checkpoint done = migration.checkpoint();
            CutoverMarker marker = new CutoverMarker(CutoverMarker.idFor(done.id()), CutoverMarker.KIND, done.id(),
                    done.source(), done.target(), clock.instant().toString(), done.positions(),
                    verification.sourceItems(), true);
            store.writeCutover(marker);
            out.println("Cutover marker " + marker.id() + " written: the target is complete; switch the application "
                    + "to " + done.target() + ".");
        }
        return 0;
    }

    /** Passes until one finds no change (the target is caught up) or the pass limit; returns the last pass's count. */
    private long catchUp(Migration migration) {
        long changes;
        int passes = 0;
        do {
            changes = migration.pass();
            passes++;
            if (passes > 1 || changes > 0) {
                out.printf("Pass %d: %,d change(s) copied.%n", passes, changes);
            }
        } while (changes > 0 && passes < maxPasses);
        return changes;
    }

    private void report(Verification v) {
        out.printf("Verified: %,d items in the source, %,d in the target; %d missing, %d only in the target, "
                + "%d different%s.%n", v.sourceItems(), v.targetItems(), v.missing().size(), v.extra().size(),
                v.different().size(), v.duplicated().isEmpty() ? ""
                        : ", " + v.duplicated().size() + " with a stale copy under an old target key");
        list("missing in the target", v.missing());
        list("only in the target", v.extra());
        list("different", v.different());
        list("stale copy in the target", v.duplicated());
        if (v.property() != null) {
            for (Map.Entry<String, long[]> e : v.counts().entrySet()) {
                long[] c = e.getValue();
                if (c[0] != c[1]) {
                    out.printf("  count of %s = %s: source %,d, target %,d%n", v.property(), e.getKey(), c[0], c[1]);
                }
            }
            out.printf("Counts per %s: %d value(s), %s.%n", v.property(), v.counts().size(),
                    v.countsMatch() ? "all equal" : "some differ");
        }
    }

    private void list(String what, List<String> identities) {
        identities.stream().limit(20).forEach(i -> out.println("  " + what + ": id " + ItemKeys.idOf(i)));
        if (identities.size() > 20) {
            out.println("  ... and " + (identities.size() - 20) + " more " + what);
        }
    }

    private CosmosContainerProperties targetContainer(CosmosAsyncDatabase tdb, CosmosContainerProperties sourceProps)
            throws IOException {
        try {
            return tdb.getContainer(targetContainer).read().block().getProperties();
        } catch (CosmosException e) {
            if (e.getStatusCode() != 404) {
                throw e;
            }
        }
        PartitionKeyDefinition key = sourceProps.getPartitionKeyDefinition();
        if (targetKey != null) {
            List<String> p = paths(targetKey);
            key = new PartitionKeyDefinition();
            key.setPaths(p);
            key.setKind(p.size() > 1 ? PartitionKind.MULTI_HASH : PartitionKind.HASH);
            key.setVersion(PartitionKeyDefinitionVersion.V2);
        }
        CosmosContainerProperties props = new CosmosContainerProperties(targetContainer, key);
        props.setIndexingPolicy(targetIndexingPolicy != null ? IndexingPolicyFile.read(targetIndexingPolicy)
                : sourceProps.getIndexingPolicy());
        if (sourceProps.getDefaultTimeToLiveInSeconds() != null) {
            props.setDefaultTimeToLiveInSeconds(sourceProps.getDefaultTimeToLiveInSeconds());
        }
        if (sourceProps.getUniqueKeyPolicy() != null) {
            props.setUniqueKeyPolicy(sourceProps.getUniqueKeyPolicy());
        }
        if (targetThroughput != null) {
            tdb.createContainer(props, ThroughputProperties.createManualThroughput(targetThroughput)).block();
        } else {
            tdb.createContainer(props).block();
        }
        out.println("Created " + tdb.getId() + "/" + targetContainer + " keyed " + key.getPaths() + ".");
        return tdb.getContainer(targetContainer).read().block().getProperties();
    }

    /** Routes the container's requests that name the group through it at low priority. */
    private static void lowPriority(CosmosAsyncContainer container) {
        container.enableServerThroughputControlGroup(new ThroughputControlGroupConfigBuilder()
                .groupName(Migration.GROUP).priorityLevel(PriorityLevel.LOW).build());
    }

    private static List<String> paths(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).toList();
    }

    private CosmosAsyncClient client() {
        AccountOptions account = new AccountOptions();
        account.endpoint = endpoint;
        account.key = key;
        return account.client();
    }
}
