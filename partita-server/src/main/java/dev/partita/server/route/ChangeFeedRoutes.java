package dev.partita.server.route;

import dev.partita.core.error.ServiceException;
import dev.partita.core.ContainerHandle;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.changefeed.ChangeFeedJson;
import dev.partita.core.changefeed.ChangeFeedMode;
import dev.partita.core.changefeed.ChangeFeedPage;
import dev.partita.core.changefeed.ChangeFeedStart;
import dev.partita.core.request.RequestOptions;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The change feed: {@code GET .../docs} with {@code A-IM} (protocol.md §8, feeds-batch.md §1–3).
 *
 * <p>Request: {@code A-IM: Incremental Feed} (latest version) or {@code Full-Fidelity Feed} (all versions and
 * deletes); the start in {@code If-None-Match} (absent = beginning, {@code *} = now, else an etag) and
 * {@code If-Modified-Since} (point in time, kept on later pages); the scope in
 * {@code x-ms-documentdb-partitionkeyrangeid} (+ {@code x-ms-start-epk}/{@code x-ms-end-epk} for a sub-range) or
 * {@code x-ms-documentdb-partitionkey}; {@code x-ms-cosmos-changefeed-wire-format-version} asks for changes wrapped
 * in {@code current}/{@code metadata} in latest-version mode too.
 *
 * <p>Response: 200 with the changes and {@code etag: "<lsn>"}, or 304 with an empty body when nothing is newer (the
 * only end-of-feed signal the SDK understands) and the etag of the position reached; a page the request deadline
 * ended before it found a change is a 200 with no documents (the SDK asks again at its etag at once). Each carries a
 * session token whose LSN comes from the same counter as the etags. A gone range id gets 410/1002 (the SDK refreshes its ranges and
 * continues on the children with the parent's etag).
 */
final class ChangeFeedRoutes {
    private static final String INCREMENTAL = "incremental feed";
    private static final String FULL_FIDELITY = "full-fidelity feed";

    Reply read(Exchange ex, ContainerHandle container, RequestOptions o) {
        ChangeFeedMode mode = mode(ex.header(Hdr.A_IM));
        ChangeFeedStart start = ChangeFeedStart.fromIfNoneMatch(ex.header(Hdr.IF_NONE_MATCH));
        Instant since = modifiedSince(ex.header(Hdr.IF_MODIFIED_SINCE));
        if (since != null) {
            start = start.withModifiedSince(since);
        }
        ChangeFeedPage page = container.changeFeed(start, mode, o);
        ContainerInfo c = container.info();
        Reply r;
        if (page.notModified()) {
            r = Reply.status(304);
        } else {
            ChangeFeedJson.Shape shape = ChangeFeedJson.shape(mode,
                    ex.header(Hdr.CHANGE_FEED_WIRE_FORMAT_VERSION) != null);
            r = Reply.status(200).body(ChangeFeedJson.page(c.rid(), page.changes(), shape, c.partitionKey()))
                    .header(Hdr.ITEM_COUNT, Integer.toString(page.changes().size()));
        }
        r.header(Hdr.ETAG, page.etag()).header(Hdr.SESSION_TOKEN, page.sessionToken());
        if (page.rangeId() != null) {
            r.header(Hdr.PARTITION_KEY_RANGE_ID, page.rangeId()); // which partition answered (the SDKs read it)
        }
        return Replies.itemPaths(r.charge(page.requestCharge()), c);
    }

    private static ChangeFeedMode mode(String aIm) {
        String v = aIm.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.equals(INCREMENTAL)) {
            return ChangeFeedMode.LATEST_VERSION;
        }
        if (v.equals(FULL_FIDELITY)) {
            return ChangeFeedMode.ALL_VERSIONS_AND_DELETES;
        }
        throw ServiceException.badRequest("A-IM must be 'Incremental Feed' (latest version) or 'Full-Fidelity Feed'"
                + " (all versions and deletes).");
    }

    private static Instant modifiedSince(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        try {
            return ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw ServiceException.badRequest("If-Modified-Since must be an RFC 1123 date, e.g."
                    + " 'Mon, 30 Nov 2026 15:20:01 GMT'.");
        }
    }
}
