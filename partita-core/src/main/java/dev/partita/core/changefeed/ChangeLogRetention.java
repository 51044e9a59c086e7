package dev.partita.core.changefeed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.StoreReader;
import java.time.Duration;

/**
 * How long a container's change log keeps every version (the all-versions-and-deletes window), and the mark pruning
 * leaves behind so that a read from an older continuation fails instead of silently skipping pruned changes.
 *
 * <p>The window is the container's {@code changeFeedPolicy.retentionDuration} (minutes, as the SDK's
 * {@code ChangeFeedPolicy} writes it) when set, else {@link Limits#changeLogRetention()}.
 */
public final class ChangeLogRetention {
    private ChangeLogRetention() {
    }

    public static Duration of(ContainerInfo c, Limits limits) {
        JsonNode minutes = c.properties().path("changeFeedPolicy").path("retentionDuration");
        if (minutes.canConvertToLong() && minutes.longValue() > 0) {
            return Duration.ofMinutes(minutes.longValue());
        }
        return limits.changeLogRetention();
    }

    /** The pruning mark, 0 if nothing was ever dropped. */
    public static long floor(StoreReader reader, int containerId) {
        return Bytes.longValue(reader.get(StoreKeys.changeLogFloor(containerId)));
    }
}
