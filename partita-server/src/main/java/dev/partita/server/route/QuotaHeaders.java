package dev.partita.server.route;

import dev.partita.core.ContainerHandle;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;

/**
 * {@code x-ms-resource-quota} and {@code x-ms-resource-usage} of a container read sent with
 * {@code x-ms-documentdb-populatequotainfo: true}, in the service's {@code key=value;key=value} form, e.g.
 * {@code documentSize=0;documentsSize=780;documentsCount=5058;collectionSize=780}. Both headers list the same keys in
 * the same order: the Java SDK reads a usage at the position of its quota
 * ({@code ResourceResponse.populateQuotaHeader}, keys from {@code Constants.Quota}). Sizes are in KB,
 * {@code documentSize} in MB; {@code documentsCount} has no quota ({@code -1}). Partita keeps no separate index
 * size, so {@code collectionSize} equals {@code documentsSize}; it has no scripts, so it reports no stored-procedure,
 * trigger or function counts.
 *
 * <p>The same read carries {@code x-ms-documentdb-collection-index-transformation-progress}, the percentage of an
 * index rebuild after a policy change (the JS SDK's {@code container.spec.ts} expects it on such a read; the Java
 * SDK's {@code getIndexTransformationProgress()} reads it). Partita rebuilds an index within the replace that changes
 * the policy, so a read never sees one under way: always 100. There is no lazy indexing, so no
 * {@code x-ms-documentdb-collection-lazy-indexing-progress} (which the JS test expects absent).
 */
final class QuotaHeaders {
    private static final long KB = 1024;
    private static final long MB = 1024 * 1024;
    private static final String TRANSFORMATION_DONE = "100";

    private QuotaHeaders() {
    }

    static Reply add(Reply reply, ContainerHandle.Usage usage) {
        long bytes = usage.stored().bytes();
        long quota = usage.quotaBytes();
        return reply
                .header(Hdr.INDEX_TRANSFORMATION_PROGRESS, TRANSFORMATION_DONE)
                .header(Hdr.RESOURCE_QUOTA, format(quota / MB, quota / KB, -1, quota / KB))
                .header(Hdr.RESOURCE_USAGE, format(ceilDiv(bytes, MB), ceilDiv(bytes, KB), usage.stored().items(),
                        ceilDiv(bytes, KB)));
    }

    private static String format(long documentSizeMb, long documentsSizeKb, long documentsCount, long collectionKb) {
        return "documentSize=" + documentSizeMb + ";documentsSize=" + documentsSizeKb + ";documentsCount="
                + documentsCount + ";collectionSize=" + collectionKb;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
