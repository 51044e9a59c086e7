package dev.partita.cli.migrate;

import com.azure.cosmos.CosmosAsyncContainer;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosBulkExecutionOptions;
import com.azure.cosmos.models.CosmosBulkItemResponse;
import com.azure.cosmos.models.CosmosBulkOperationResponse;
import com.azure.cosmos.models.CosmosBulkOperations;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.CosmosItemOperation;
import com.azure.cosmos.models.FeedRange;
import com.azure.cosmos.models.FeedResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.cli.tools.Progress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Flux;

/**
 * The copy and the catch-up: the source's latest-version change feed, read from the beginning, one continuation per
 * feed range, every page upserted into the target through the bulk API and then checkpointed.
 *
 * <p>Why the change feed and not a query followed by a feed from "now": read from the beginning, the latest-version
 * feed yields every live item once, at its latest write, and reading on yields the writes made meanwhile. So the copy
 * and the catch-up are one position per range, saved after each page; a crash costs at most the page in flight, which
 * the rerun upserts again (upserts converge; nothing is duplicated because the target's id and key come from the
 * item). What this mode cannot see is a delete, nor the old target key of an item whose target-key property changed
 * after it was copied: verification reports such items as "only in the target" and "stale copy", and {@code --repair}
 * fixes them after re-checking the source. (The all-versions-and-deletes feed would carry deletes and previous
 * images, but it starts only from "now" and needs continuous backup on a real account.)
 *
 * <p>Only reads touch the source. Source reads and target writes go through a low-priority throughput-control group
 * ({@value #GROUP}) and the client-side {@link RuBudget}.
 */
final class Migration {
    /** The SDK throughput-control group carrying {@code x-ms-cosmos-priority-level: Low}. */
    static final String GROUP = "partita-migrate";
    private static final int REPORTED = 20;

    /** Called after a page's writes, before its checkpoint: the point where a crash costs the most (tests throw). */
    interface Listener {
        void pageWritten(long copiedSoFar);
    }

    /** A write the SDK could not do after its retries; the page is not checkpointed, a rerun retries it. */
    static final class WriteFailed extends RuntimeException {
        WriteFailed(String message) {
            super(message);
        }
    }

    private final CosmosAsyncContainer source;
    private final CosmosAsyncContainer target;
    private final CheckpointStore checkpoints;
    private final List<String> targetKey;
    private final RuBudget budget;
    private final Clock clock;
    private final int pageSize;
    private final Listener listener;
    private final Progress progress;
    private Checkpoint checkpoint;

    Migration(CosmosAsyncContainer source, CosmosAsyncContainer target, CheckpointStore checkpoints,
            Checkpoint checkpoint, RuBudget budget, Clock clock, int pageSize, Listener listener, Progress progress) {
        this.source = source;
        this.target = target;
        this.checkpoints = checkpoints;
        this.checkpoint = checkpoint;
        this.targetKey = checkpoint.targetKey();
        this.budget = budget;
        this.clock = clock;
        this.pageSize = pageSize;
        this.listener = listener;
        this.progress = progress;
    }

    Checkpoint checkpoint() {
        return checkpoint;
    }

    /**
     * Reads every range's feed to its current end once (the first pass is the bulk copy) and saves the position.
     *
     * @return the changes read in this pass; 0 means the target had every change up to this pass's end
     */
    long pass() {
        List<Checkpoint.Position> positions = new ArrayList<>(checkpoint.positions());
        if (positions.isEmpty()) {
            // the source's feed ranges now; later splits are followed inside the continuations by the SDK
            for (FeedRange range : source.getFeedRanges().block()) {
                positions.add(new Checkpoint.Position(range.toString(), null));
            }
            save(positions, checkpoint.copied(), checkpoint.copyDone());
        }
        long changes = 0;
        for (int i = 0; i < positions.size(); i++) {
            changes += readRange(positions, i);
        }
        if (!checkpoint.copyDone()) {
            save(positions, checkpoint.copied(), true);
        }
        return changes;
    }

    private long readRange(List<Checkpoint.Position> positions, int index) {
        Checkpoint.Position at = positions.get(index);
        CosmosChangeFeedRequestOptions options = at.continuation() == null
                ? CosmosChangeFeedRequestOptions.createForProcessingFromBeginning(FeedRange.fromString(at.range()))
                : CosmosChangeFeedRequestOptions.createForProcessingFromContinuation(at.continuation());
        options.setMaxItemCount(pageSize);
        options.setThroughputControlGroupName(GROUP);
        long changes = 0;
        String continuation = at.continuation();
        for (FeedResponse<ObjectNode> page : source.queryChangeFeed(options, ObjectNode.class).byPage()
                .toIterable(1)) {
            budget.spend(page.getRequestCharge());
            List<ObjectNode> items = page.getResults();
            long copied = checkpoint.copied();
            if (!items.isEmpty()) {
                write(items);
                changes += items.size();
                copied += items.size();
                listener.pageWritten(copied);
            }
            String next = page.getContinuationToken();
            if (!items.isEmpty() || !Objects.equals(next, continuation)) {
                continuation = next;
                positions.set(index, new Checkpoint.Position(at.range(), next));
                save(positions, copied, checkpoint.copyDone());
            }
        }
        return changes;
    }

    /** Upserts a page into the target (bulk, low priority), paced by the budget; any failure stops the migration. */
    private void write(List<ObjectNode> items) {
        Flux<CosmosItemOperation> operations = Flux.fromIterable(items).map(item -> CosmosBulkOperations
                .getUpsertItemOperation(ItemKeys.content(item), ItemKeys.partitionKey(item, targetKey),
                        item.path("id").asText()));
        CosmosBulkExecutionOptions options = new CosmosBulkExecutionOptions().setThroughputControlGroupName(GROUP);
        List<String> failures = new ArrayList<>();
        double[] charge = {0};
        target.executeBulkOperations(operations, options).doOnNext(r -> {
            CosmosBulkItemResponse response = r.getResponse();
            if (response != null) {
                charge[0] += response.getRequestCharge();
            }
            if (response == null || !response.isSuccessStatusCode()) {
                failures.add(describe(r));
            }
        }).blockLast();
        budget.spend(charge[0]);
        progress.add(items.size() - failures.size(), charge[0]);
        if (!failures.isEmpty()) {
            throw new WriteFailed(failures.size() + " item(s) could not be written to the target; nothing after "
                    + "the last checkpoint is lost, rerun to retry:" + System.lineSeparator()
                    + String.join(System.lineSeparator(), failures.stream().limit(REPORTED).toList()));
        }
    }

    private static String describe(CosmosBulkOperationResponse<Object> r) {
        CosmosBulkItemResponse response = r.getResponse();
        String why = response != null ? "status " + response.getStatusCode() + "/" + response.getSubStatusCode()
                : r.getException() instanceof CosmosException e ? "status " + e.getStatusCode() + "/"
                        + e.getSubStatusCode() : String.valueOf(r.getException());
        return "  id " + r.getOperation().getContext() + ": " + why;
    }

    private void save(List<Checkpoint.Position> positions, long copied, boolean copyDone) {
        checkpoint = checkpoint.with(List.copyOf(positions), copied, copyDone, clock.instant().toString());
        budget.spend(checkpoints.save(checkpoint));
    }
}
