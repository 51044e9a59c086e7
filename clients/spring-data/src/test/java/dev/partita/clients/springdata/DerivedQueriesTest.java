package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;

/** The SQL Spring Data Cosmos derives from repository method names, run single- and cross-partition. */
class DerivedQueriesTest extends PartitaSpringTest {
    @Autowired
    OrderRepository orders;

    @BeforeEach
    void seed() {
        orders.deleteAll();
        orders.saveAll(List.of(
                new Order("o1", "c1", "NEW", 100, 1_000, "Oslo").tags("gift-wrap").gift(true)
                        .shipTo("Storgata 1", "0155"),
                new Order("o2", "c1", "PAID", 250, 2_000, "Bergen").note("leave at the door"),
                new Order("o3", "c2", "NEW", 75, 3_000, "Oslo").shipTo("Karl Johans gate 2", "0155"),
                new Order("o4", "c2", "SHIPPED", 500, 4_000, "Trondheim").tags("express", "gift-wrap").gift(true),
                new Order("o5", "c3", "PAID", 1_200, 5_000, "Stavanger").tags("express").shipTo("Torget 3", "4006"),
                new Order("o6", "c3", "CANCELLED", 30, 6_000, "Oslo").note("changed my mind")));
    }

    private static List<String> ids(Iterable<Order> found) {
        return StreamSupport.stream(found.spliterator(), false).map(Order::getId).toList();
    }

    @Test
    void findAllAndCountSeeEverySavedOrder() {
        assertThat(ids(orders.findAll())).containsExactlyInAnyOrder("o1", "o2", "o3", "o4", "o5", "o6");
        assertThat(orders.count()).isEqualTo(6);
    }

    @Test
    void equalityOnThePartitionKey() {
        assertThat(ids(orders.findByCustomerId("c1"))).containsExactlyInAnyOrder("o1", "o2");
        assertThat(ids(orders.findByCustomerIdAndStatus("c1", "PAID"))).containsExactly("o2");
        assertThat(orders.findByCustomerId("nobody")).isEmpty();
    }

    @Test
    void orOfTwoProperties() {
        assertThat(ids(orders.findByStatusOrCity("PAID", "Oslo")))
                .containsExactlyInAnyOrder("o1", "o2", "o3", "o5", "o6");
    }

    @Test
    void inAndNotIn() {
        assertThat(ids(orders.findByStatusIn(List.of("NEW", "SHIPPED")))).containsExactlyInAnyOrder("o1", "o3", "o4");
        assertThat(ids(orders.findByStatusNotIn(List.of("NEW", "SHIPPED"))))
                .containsExactlyInAnyOrder("o2", "o5", "o6");
    }

    @Test
    void rangesAndBetween() {
        assertThat(ids(orders.findByTotalBetween(75, 250))).containsExactlyInAnyOrder("o1", "o2", "o3");
        assertThat(ids(orders.findByPlacedAtAfterAndPlacedAtBefore(2_000, 5_000)))
                .containsExactlyInAnyOrder("o3", "o4");
        assertThat(ids(orders.findByStatusNot("NEW"))).containsExactlyInAnyOrder("o2", "o4", "o5", "o6");
    }

    @Test
    void orderingFromTheMethodName() {
        assertThat(ids(orders.findByTotalGreaterThanEqualOrderByTotalDesc(100)))
                .containsExactly("o5", "o4", "o2", "o1");
        assertThat(ids(orders.findByCustomerIdOrderByPlacedAtDesc("c2"))).containsExactly("o4", "o3");
    }

    @Test
    void orderingFromASortParameter() {
        assertThat(ids(orders.findByTotalLessThan(300, Sort.by("total")))).containsExactly("o6", "o3", "o1", "o2");
        assertThat(ids(orders.findByTotalLessThan(300, Sort.by(Sort.Direction.DESC, "placedAt"))))
                .containsExactly("o6", "o3", "o2", "o1");
    }

    @Test
    void findAllWithSortAcrossPartitions() {
        assertThat(ids(orders.findAll(Sort.by(Sort.Direction.DESC, "total"))))
                .containsExactly("o5", "o4", "o2", "o1", "o3", "o6");
    }

    @Test
    void topNWithOrderBy() {
        assertThat(ids(orders.findTop2ByStatusOrderByTotalDesc("PAID"))).containsExactly("o5", "o2");
    }

    @Test
    void stringFunctions() {
        assertThat(ids(orders.findByCityStartsWith("Os"))).containsExactlyInAnyOrder("o1", "o3", "o6");
        assertThat(ids(orders.findByCityEndsWith("heim"))).containsExactly("o4");
        assertThat(ids(orders.findByCityContaining("erg"))).containsExactly("o2");
        assertThat(ids(orders.findByCityIgnoreCase("OSLO"))).containsExactlyInAnyOrder("o1", "o3", "o6");
        assertThat(ids(orders.findByCityStartsWithIgnoreCase("st"))).containsExactly("o5");
        assertThat(ids(orders.findByCityContainingIgnoreCase("HEI"))).containsExactly("o4");
    }

    @Test
    void nestedPropertiesIdsAndMixedConditions() {
        assertThat(ids(orders.findByShipToZip("0155"))).containsExactlyInAnyOrder("o1", "o3");
        assertThat(orders.findById("o5")).map(Order::getShipTo).contains(new Address("Torget 3", "4006"));
        assertThat(ids(orders.findByIdIn(List.of("o2", "o4", "o9")))).containsExactlyInAnyOrder("o2", "o4");
        assertThat(ids(orders.findByTotalGreaterThanAndCityNotIn(90, List.of("Oslo", "Bergen"))))
                .containsExactlyInAnyOrder("o4", "o5");
    }

    @Test
    void arrayContainsNeedsAWrittenQuery() {
        // a derived "Containing" is the string function CONTAINS, undefined (no match) on an array, as on the service
        assertThat(orders.findByTagsContaining("gift-wrap")).isEmpty();
        assertThat(ids(orders.withTag("gift-wrap"))).containsExactlyInAnyOrder("o1", "o4");
        assertThat(ids(orders.withTag("express"))).containsExactlyInAnyOrder("o4", "o5");
    }

    @Test
    void nullAndBooleanChecks() {
        assertThat(ids(orders.findByNoteIsNotNull())).containsExactlyInAnyOrder("o2", "o6");
        assertThat(ids(orders.findByNoteIsNull())).containsExactlyInAnyOrder("o1", "o3", "o4", "o5");
        assertThat(ids(orders.findByGiftTrue())).containsExactlyInAnyOrder("o1", "o4");
    }

    @Test
    void countAndExists() {
        assertThat(orders.countByStatus("PAID")).isEqualTo(2);
        assertThat(orders.countByStatus("LOST")).isZero();
        assertThat(orders.countByCustomerId("c3")).isEqualTo(2);
        assertThat(orders.existsByCustomerIdAndStatus("c2", "SHIPPED")).isTrue();
        assertThat(orders.existsByCustomerIdAndStatus("c2", "PAID")).isFalse();
        assertThat(orders.existsById("o3")).isTrue();
        assertThat(orders.existsById("o9")).isFalse();
    }

    @Test
    void writtenQueriesWithParameters() {
        assertThat(ids(orders.expensiveIn(90, "Oslo"))).containsExactly("o1");
        assertThat(orders.countWritten("NEW")).isEqualTo(2);
    }

    @Test
    void writtenQueriesWithACollectionParameterAndASort() {
        assertThat(ids(orders.withStatuses(List.of("PAID", "CANCELLED")))).containsExactlyInAnyOrder("o2", "o5", "o6");
        assertThat(ids(orders.inCity("Oslo", Sort.by(Sort.Direction.DESC, "total")))).containsExactly("o1", "o3", "o6");
    }

    @Test
    void writtenQueryPagedAcrossPartitions() {
        List<String> seen = new ArrayList<>();
        Page<Order> page = orders.pageAtLeast(75, PageRequest.of(0, 2, Sort.by("total")));
        assertThat(page.getTotalElements()).isEqualTo(5);
        seen.addAll(ids(page.getContent()));
        while (page.hasNext()) {
            page = orders.pageAtLeast(75, page.nextPageable());
            seen.addAll(ids(page.getContent()));
        }
        assertThat(seen).containsExactly("o3", "o1", "o2", "o4", "o5");
    }

    @Test
    void writtenQuerySlicedInAPartition() {
        Slice<Order> first = orders.sliceOf("c3", PageRequest.of(0, 1, Sort.by("placedAt")));
        assertThat(ids(first.getContent())).containsExactly("o5");
        assertThat(first.hasNext()).isTrue();
        Slice<Order> second = orders.sliceOf("c3", first.nextPageable());
        assertThat(ids(second.getContent())).containsExactly("o6");
    }

    @Test
    void writtenAggregates() {
        assertThat(orders.totalOf("c1")).isEqualTo(350);
        assertThat(orders.cities()).containsExactlyInAnyOrder("Oslo", "Bergen", "Trondheim", "Stavanger");
        Map<String, String> byStatus = new HashMap<>();
        orders.countsByStatus().forEach(row -> byStatus.put(row.get("status").asText(),
                row.get("n").asLong() + "/" + row.get("total").asLong()));
        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of("NEW", "2/175", "PAID", "2/1450",
                "SHIPPED", "1/500", "CANCELLED", "1/30"));
    }

    @Test
    void findByIdWithoutThePartitionKeyAndFindAllById() {
        assertThat(orders.findById("o4")).map(Order::getCustomerId).contains("c2");
        assertThat(orders.findById("o9")).isEmpty();
        assertThat(ids(orders.findAllById(List.of("o1", "o5", "o9")))).containsExactlyInAnyOrder("o1", "o5");
    }

    @Test
    void findByIdWithThePartitionKey() {
        assertThat(orders.findById("o4", new com.azure.cosmos.models.PartitionKey("c2"))).isPresent();
        assertThat(orders.findById("o4", new com.azure.cosmos.models.PartitionKey("c1"))).isEmpty();
    }

    @Test
    void derivedDeleteRemovesOnlyThatCustomer() {
        orders.deleteByCustomerId("c1");
        assertThat(ids(orders.findAll())).containsExactlyInAnyOrder("o3", "o4", "o5", "o6");
    }

    @Test
    void deleteByIdAndEntity() {
        orders.deleteById("o3", new com.azure.cosmos.models.PartitionKey("c2"));
        orders.delete(orders.findById("o5").orElseThrow());
        assertThat(ids(orders.findAll())).containsExactlyInAnyOrder("o1", "o2", "o4", "o6");
    }

    @Test
    void saveOfAnExistingIdReplacesIt() {
        Order o2 = orders.findById("o2").orElseThrow();
        o2.setStatus("SHIPPED");
        orders.save(o2);
        assertThat(orders.findById("o2")).map(Order::getStatus).contains("SHIPPED");
        assertThat(orders.count()).isEqualTo(6);
    }
}
