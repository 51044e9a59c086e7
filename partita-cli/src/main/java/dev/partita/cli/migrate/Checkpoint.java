package dev.partita.cli.migrate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * Where a migration stands, saved as one small document in the checkpoint container after every copied page so a
 * rerun resumes instead of starting over. The position is one change-feed continuation per source feed range: the
 * copy is the latest-version change feed read from the beginning, and the catch-up is the same feed read on.
 *
 * @param id         the migration id (also the partition key of the checkpoint container, {@code /id})
 * @param source     {@code database/container}
 * @param target     {@code database/container}
 * @param targetKey  the target's partition key paths
 * @param positions  one per source feed range, in the order first read
 * @param copied     item writes to the target so far (a page re-read after a crash counts again)
 * @param copyDone   true once every range was read to its end once: the target then holds a full copy
 * @param updatedAt  ISO instant of the last save
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record Checkpoint(String id, String kind, String source, String target, List<String> targetKey,
        List<Position> positions, long copied, boolean copyDone, String updatedAt) {
    static final String KIND = "partita-migrate-checkpoint";

    /** A feed range (the SDK's JSON form) and the continuation read up to; null continuation = not started. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Position(String range, String continuation) {
    }

    Checkpoint with(List<Position> positions, long copied, boolean copyDone, String updatedAt) {
        return new Checkpoint(id, kind, source, target, targetKey, positions, copied, copyDone, updatedAt);
    }
}
