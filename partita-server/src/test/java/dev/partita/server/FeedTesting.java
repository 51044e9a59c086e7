package dev.partita.server;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.implementation.routing.PartitionKeyInternalHelper;
import com.azure.cosmos.models.CosmosChangeFeedRequestOptions;
import com.azure.cosmos.models.FeedResponse;
import com.azure.cosmos.models.ModelBridgeInternal;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.PartitionKeyDefinition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Shared pieces of the change-feed tests: a clock tests can move, and draining a feed through the SDK. */
final class FeedTesting {
    private FeedTesting() {
    }

    /**
     * The system clock plus an offset the test moves forward (TTL expiry, point-in-time starts) without sleeping; it
     * stays within the 15 minutes of request-date skew the authenticator allows.
     */
    static final class OffsetClock extends Clock {
        private volatile Duration offset = Duration.ZERO;

        void advance(Duration d) {
            offset = offset.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset);
        }
    }

    /** The items of a drained feed and the continuation of its last page. */
    record Drained<T>(List<T> items, String continuation, int pages) {
    }

    /** Reads a feed until the SDK ends it (every range answered 304). */
    static <T> Drained<T> drain(CosmosContainer c, CosmosChangeFeedRequestOptions options, Class<T> type) {
        List<T> items = new ArrayList<>();
        String continuation = null;
        int pages = 0;
        for (FeedResponse<T> page : c.queryChangeFeed(options, type).iterableByPage()) {
            items.addAll(page.getResults());
            continuation = page.getContinuationToken();
            pages++;
        }
        return new Drained<>(items, continuation, pages);
    }

    /** Reads at most {@code maxPages} pages of a feed (stopping part-way), for resuming later. */
    static <T> Drained<T> readPages(CosmosContainer c, CosmosChangeFeedRequestOptions options, Class<T> type,
            int maxPages) {
        List<T> items = new ArrayList<>();
        String continuation = null;
        int pages = 0;
        for (FeedResponse<T> page : c.queryChangeFeed(options, type).iterableByPage()) {
            items.addAll(page.getResults());
            continuation = page.getContinuationToken();
            if (++pages >= maxPages) {
                break;
            }
        }
        return new Drained<>(items, continuation, pages);
    }

    /** The SDK's own EPK of a partition key. */
    static String epk(PartitionKey pk, PartitionKeyDefinition definition) {
        return PartitionKeyInternalHelper.getEffectivePartitionKeyString(
                ModelBridgeInternal.getPartitionKeyInternal(pk), definition);
    }
}
