package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.models.PartitionKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Sort;
import reactor.core.publisher.Flux;

/** The reactive repository over the same container. */
class ReactiveRepositoryTest extends PartitaSpringTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    ReactiveOrderRepository orders;

    @BeforeEach
    void seed() {
        orders.deleteAll().block(WAIT);
        orders.saveAll(Flux.just(new Order("r1", "c1", "NEW", 10, 1, "Oslo"),
                new Order("r2", "c1", "PAID", 30, 2, "Bergen"),
                new Order("r3", "c2", "NEW", 20, 3, "Oslo"))).blockLast(WAIT);
    }

    private static List<String> ids(Flux<Order> found) {
        return found.map(Order::getId).collectList().block(WAIT);
    }

    @Test
    void derivedQueriesStreamTheirResults() {
        assertThat(ids(orders.findByCity("Oslo"))).containsExactlyInAnyOrder("r1", "r3");
        assertThat(ids(orders.findByCustomerIdOrderByTotalDesc("c1"))).containsExactly("r2", "r1");
        assertThat(orders.countByStatus("NEW").block(WAIT)).isEqualTo(2);
        assertThat(orders.existsByCity("Bergen").block(WAIT)).isTrue();
        assertThat(orders.existsByCity("Bodø").block(WAIT)).isFalse();
    }

    @Test
    void pointReadsSortAndDeletes() {
        assertThat(orders.findById("r3", new PartitionKey("c2")).map(Order::getTotal).block(WAIT)).isEqualTo(20);
        assertThat(orders.findById("r3", new PartitionKey("c1")).block(WAIT)).isNull();
        assertThat(ids(orders.findAll(Sort.by(Sort.Direction.DESC, "total")))).containsExactly("r2", "r3", "r1");
        assertThat(orders.count().block(WAIT)).isEqualTo(3);
        orders.deleteById("r1", new PartitionKey("c1")).block(WAIT);
        assertThat(ids(orders.findAll())).containsExactlyInAnyOrder("r2", "r3");
    }
}
