package dev.partita.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ActivityIdTest {

    @Test
    void aNewActivityIdIsADistinctVersion4Uuid() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = GatewayHandler.newActivityId();
            UUID u = UUID.fromString(id);
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(u.toString()).isEqualTo(id);
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void theClientsActivityIdIsKeptWhenItIsSafeToEchoAndReplacedOtherwise() {
        String given = "3f2b8c1e-0d4a-4e7b-9c2d-5a6b7c8d9e0f";
        assertThat(GatewayHandler.activityId(new DefaultHttpHeaders().set("x-ms-activity-id", given)))
                .isEqualTo(given);
        String replaced = GatewayHandler.activityId(new DefaultHttpHeaders().set("x-ms-activity-id", "<script>"));
        assertThat(UUID.fromString(replaced).version()).isEqualTo(4);
        assertThat(UUID.fromString(GatewayHandler.activityId(new DefaultHttpHeaders())).version()).isEqualTo(4);
    }
}
