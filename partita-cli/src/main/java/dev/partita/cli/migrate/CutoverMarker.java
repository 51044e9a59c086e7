package dev.partita.cli.migrate;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;

/**
 * The document an application checks before switching to the target: written only after a final catch-up that found
 * no change left and a clean verification. Its id is {@code <migration id>.cutover} in the checkpoint container.
 *
 * @param at         ISO instant the marker was written
 * @param positions  the source change-feed continuations the target is complete up to
 * @param items      items verified on both sides
 * @param verified   always true in a written marker (a failed verification writes none); kept for readers
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record CutoverMarker(String id, String kind, String migration, String source, String target, String at,
        List<Checkpoint.Position> positions, long items, boolean verified) {
    static final String KIND = "partita-migrate-cutover";

    static String idFor(String migrationId) {
        return migrationId + ".cutover";
    }
}
