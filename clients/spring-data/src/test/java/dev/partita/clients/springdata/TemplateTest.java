package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.models.CosmosPatchItemRequestOptions;
import com.azure.cosmos.models.CosmosPatchOperations;
import com.azure.cosmos.models.PartitionKey;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import com.azure.spring.data.cosmos.core.CosmosTemplate;
import com.azure.spring.data.cosmos.core.query.CosmosPageRequest;
import com.azure.spring.data.cosmos.core.query.CosmosQuery;
import com.azure.spring.data.cosmos.core.query.Criteria;
import com.azure.spring.data.cosmos.core.query.CriteriaType;
import com.azure.spring.data.cosmos.exception.CosmosConflictException;
import com.azure.spring.data.cosmos.exception.CosmosPreconditionFailedException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.parser.Part;

/** {@link CosmosTemplate} directly: point operations with partition keys, criteria queries, patch, bulk deletes. */
class TemplateTest extends PartitaSpringTest {
    private static final String ORDERS = "orders";

    @Autowired
    CosmosTemplate template;

    @BeforeEach
    void seed() {
        template.deleteAll(ORDERS, Order.class);
        template.insert(ORDERS, new Order("t1", "c1", "NEW", 100, 1_000, "Oslo"), new PartitionKey("c1"));
        template.insert(ORDERS, new Order("t2", "c1", "PAID", 300, 2_000, "Bergen"), new PartitionKey("c1"));
        template.insert(ORDERS, new Order("t3", "c2", "NEW", 700, 3_000, "Oslo"), new PartitionKey("c2"));
        template.insert(ORDERS, new Order("t4", "c3", "SHIPPED", 50, 4_000, "Bergen"), new PartitionKey("c3"));
    }

    private static Criteria is(CriteriaType type, String subject, Object value) {
        return Criteria.getInstance(type, subject, List.of(value), Part.IgnoreCaseType.NEVER);
    }

    private static List<String> ids(Iterable<Order> found) {
        return StreamSupport.stream(found.spliterator(), false).map(Order::getId).toList();
    }

    @Test
    void insertReturnsTheStoredEntityAndATakenIdConflicts() {
        Order stored = template.insert(ORDERS, new Order("t5", "c1", "NEW", 1, 5_000, "Oslo"), new PartitionKey("c1"));
        assertThat(stored.getId()).isEqualTo("t5");
        assertThatThrownBy(() -> template.insert(ORDERS, new Order("t5", "c1", "NEW", 2, 5_000, "Oslo"),
                new PartitionKey("c1"))).isInstanceOf(CosmosConflictException.class);
        // the same id under another partition key is another item
        template.insert(ORDERS, new Order("t5", "c2", "NEW", 3, 5_000, "Oslo"), new PartitionKey("c2"));
        assertThat(template.count(ORDERS)).isEqualTo(6);
    }

    @Test
    void findByIdWithAndWithoutThePartitionKey() {
        assertThat(template.findById("t3", Order.class, new PartitionKey("c2")).getTotal()).isEqualTo(700);
        assertThat(template.findById("t3", Order.class, new PartitionKey("c1"))).isNull();
        assertThat(template.findById(ORDERS, "t2", Order.class).getStatus()).isEqualTo("PAID");
        assertThat(template.findById(ORDERS, "nope", Order.class)).isNull();
    }

    @Test
    void queriesByCriteria() {
        CosmosQuery newInOslo = new CosmosQuery(Criteria.getInstance(CriteriaType.AND,
                is(CriteriaType.IS_EQUAL, "status", "NEW"), is(CriteriaType.IS_EQUAL, "city", "Oslo")));
        assertThat(ids(template.find(newInOslo, Order.class, ORDERS))).containsExactlyInAnyOrder("t1", "t3");
        assertThat(template.count(newInOslo, ORDERS)).isEqualTo(2);
        assertThat(template.exists(newInOslo, Order.class, ORDERS)).isTrue();

        CosmosQuery big = new CosmosQuery(is(CriteriaType.GREATER_THAN, "total", 200)).with(Sort.by("total"));
        assertThat(ids(template.find(big, Order.class, ORDERS))).containsExactly("t2", "t3");

        CosmosQuery none = new CosmosQuery(is(CriteriaType.IS_EQUAL, "city", "Tromsø"));
        assertThat(template.exists(none, Order.class, ORDERS)).isFalse();
        assertThat(template.count(none, ORDERS)).isZero();

        CosmosQuery arrays = new CosmosQuery(Criteria.getInstance(CriteriaType.OR,
                is(CriteriaType.STARTS_WITH, "city", "Ber"), is(CriteriaType.LESS_THAN_EQUAL, "total", 100)));
        assertThat(ids(template.find(arrays, Order.class, ORDERS))).containsExactlyInAnyOrder("t1", "t2", "t4");
    }

    @Test
    void criteriaSliceWithinAPartition() {
        CosmosQuery c1 = new CosmosQuery(is(CriteriaType.IS_EQUAL, "customerId", "c1"))
                .with(CosmosPageRequest.of(0, 1, null, Sort.by("placedAt")));
        List<String> seen = new ArrayList<>();
        Slice<Order> slice = template.sliceQuery(c1, Order.class, ORDERS);
        seen.addAll(ids(slice.getContent()));
        while (slice.hasNext()) {
            slice = template.sliceQuery(new CosmosQuery(is(CriteriaType.IS_EQUAL, "customerId", "c1"))
                    .with(slice.nextPageable()), Order.class, ORDERS);
            seen.addAll(ids(slice.getContent()));
        }
        assertThat(seen).containsExactly("t1", "t2");
    }

    @Test
    void writtenQueriesAndAggregates() {
        SqlQuerySpec inOslo = new SqlQuerySpec("SELECT * FROM r WHERE r.city = @city",
                new SqlParameter("@city", "Oslo"));
        assertThat(ids(template.runQuery(inOslo, Order.class, Order.class))).containsExactlyInAnyOrder("t1", "t3");
        assertThat(ids(template.runQuery(inOslo, Sort.by(Sort.Direction.DESC, "total"), Order.class, Order.class)))
                .containsExactly("t3", "t1");
        assertThat(template.sum(new SqlQuerySpec("SELECT VALUE SUM(r.total) FROM r"), ORDERS)).isEqualTo(1_150);
        assertThat(template.count(new SqlQuerySpec("SELECT VALUE COUNT(1) FROM r WHERE r.total > 60"), ORDERS))
                .isEqualTo(3);
    }

    @Test
    void findAllOfOnePartitionAndFindByIds() {
        assertThat(ids(template.findAll(new PartitionKey("c1"), Order.class))).containsExactlyInAnyOrder("t1", "t2");
        assertThat(ids(template.findByIds(List.of("t1", "t4", "t9"), Order.class, ORDERS)))
                .containsExactlyInAnyOrder("t1", "t4");
    }

    @Test
    void upsertAndPatch() {
        Order t1 = template.findById("t1", Order.class, new PartitionKey("c1"));
        t1.setCity("Tromsø");
        template.upsert(ORDERS, t1);
        template.upsert(ORDERS, new Order("t6", "c4", "NEW", 10, 6_000, "Bodø"));
        assertThat(template.findById("t1", Order.class, new PartitionKey("c1")).getCity()).isEqualTo("Tromsø");
        assertThat(template.findById("t6", Order.class, new PartitionKey("c4")).getCity()).isEqualTo("Bodø");

        Order patched = template.patch("t2", new PartitionKey("c1"), Order.class,
                CosmosPatchOperations.create().replace("/status", "SHIPPED").increment("/total", 25)
                        .add("/tags/-", "express"));
        assertThat(patched.getStatus()).isEqualTo("SHIPPED");
        assertThat(patched.getTotal()).isEqualTo(325);
        assertThat(patched.getTags()).containsExactly("express");
    }

    @Test
    void conditionalPatch() {
        CosmosPatchItemRequestOptions onlyIfNew = new CosmosPatchItemRequestOptions()
                .setFilterPredicate("FROM orders o WHERE o.status = 'NEW'");
        Order paid = template.patch("t1", new PartitionKey("c1"), Order.class,
                CosmosPatchOperations.create().set("/status", "PAID"), onlyIfNew);
        assertThat(paid.getStatus()).isEqualTo("PAID");
        assertThatThrownBy(() -> template.patch("t1", new PartitionKey("c1"), Order.class,
                CosmosPatchOperations.create().set("/status", "PAID"), onlyIfNew))
                .isInstanceOf(CosmosPreconditionFailedException.class);
    }

    @Test
    void deletesByQueryByIdAndAll() {
        CosmosQuery bergen = new CosmosQuery(is(CriteriaType.IS_EQUAL, "city", "Bergen"));
        assertThat(ids(template.delete(bergen, Order.class, ORDERS))).containsExactlyInAnyOrder("t2", "t4");
        template.deleteById(ORDERS, "t3", new PartitionKey("c2"));
        assertThat(ids(template.findAll(ORDERS, Order.class))).containsExactly("t1");
        template.deleteAll(ORDERS, Order.class);
        assertThat(template.count(ORDERS)).isZero();
    }
}
