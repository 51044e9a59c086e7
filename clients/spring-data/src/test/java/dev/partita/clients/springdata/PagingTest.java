package dev.partita.clients.springdata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.spring.data.cosmos.core.query.CosmosPageRequest;
import com.azure.spring.data.cosmos.exception.CosmosAccessException;
import com.azure.spring.data.cosmos.exception.CosmosBadRequestException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;

/**
 * Pages and slices: the framework asks for a page size, keeps the continuation token the service returned in the
 * next {@link CosmosPageRequest}, and counts the total with a second query.
 */
class PagingTest extends PartitaSpringTest {
    private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED"};
    private static final String[] CITIES = {"Oslo", "Bergen", "Trondheim", "Stavanger"};

    @Autowired
    OrderRepository orders;

    // 25 orders of 5 customers; totals distinct and not in id order
    private final List<Order> all = IntStream.range(0, 25).mapToObj(i -> new Order("p%02d".formatted(i), "c" + i % 5,
            STATUSES[i % 3], (i * 37 % 101) * 10 + i, 1_000L * i, CITIES[i % 4])).toList();

    @BeforeEach
    void seedOnce() {
        // the tests only read: one seeding per class (and Spring context)
        if (orders.count() != all.size()) {
            orders.deleteAll();
            orders.saveAll(all);
        }
    }

    private List<String> sortedIds(Comparator<Order> order) {
        return all.stream().sorted(order).map(Order::getId).toList();
    }

    private static List<String> ids(Iterable<Order> found) {
        return StreamSupport.stream(found.spliterator(), false).map(Order::getId).toList();
    }

    @Test
    void pagesSortedAcrossPartitionsFollowTheContinuation() {
        List<String> seen = new ArrayList<>();
        Page<Order> page = orders.findAll(PageRequest.of(0, 10, Sort.by("total")));
        assertThat(page.getTotalElements()).isEqualTo(25);
        assertThat(page.getTotalPages()).isEqualTo(3);
        int pages = 1;
        seen.addAll(ids(page.getContent()));
        while (page.hasNext()) {
            Pageable next = page.nextPageable();
            assertThat(next).isInstanceOf(CosmosPageRequest.class);
            assertThat(((CosmosPageRequest) next).getRequestContinuation()).isNotNull();
            page = orders.findAll(next);
            seen.addAll(ids(page.getContent()));
            pages++;
        }
        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyElementsOf(sortedIds(Comparator.comparingLong(Order::getTotal)));
    }

    @Test
    void pagesUnsortedAcrossPartitionsSeeEveryOrderOnce() {
        List<String> seen = new ArrayList<>();
        Page<Order> page = orders.findAll(CosmosPageRequest.of(0, 7, null, Sort.unsorted()));
        seen.addAll(ids(page.getContent()));
        while (page.hasNext()) {
            page = orders.findAll(page.nextPageable());
            seen.addAll(ids(page.getContent()));
        }
        assertThat(seen).hasSize(25).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(sortedIds(Comparator.comparing(Order::getId)));
    }

    @Test
    void aLaterPageWithoutAContinuationSkipsTheEarlierOnes() {
        Page<Order> second = orders.findAll(PageRequest.of(1, 10, Sort.by(Sort.Direction.DESC, "total")));
        assertThat(ids(second.getContent())).containsExactlyElementsOf(
                sortedIds(Comparator.comparingLong(Order::getTotal).reversed()).subList(10, 20));
    }

    @Test
    void derivedQueryPagesWithSortAndCount() {
        List<String> seen = new ArrayList<>();
        Page<Order> page = orders.findByStatus("NEW", CosmosPageRequest.of(0, 4, null,
                Sort.by(Sort.Direction.DESC, "total")));
        assertThat(page.getTotalElements()).isEqualTo(9);
        seen.addAll(ids(page.getContent()));
        while (page.hasNext()) {
            page = orders.findByStatus("NEW", page.nextPageable());
            seen.addAll(ids(page.getContent()));
        }
        assertThat(seen).containsExactlyElementsOf(all.stream().filter(o -> o.getStatus().equals("NEW"))
                .sorted(Comparator.comparingLong(Order::getTotal).reversed()).map(Order::getId).toList());
    }

    @Test
    void slicesWithinOnePartition() {
        List<String> seen = new ArrayList<>();
        Slice<Order> slice = orders.findSliceByCustomerId("c1", PageRequest.of(0, 2, Sort.by("placedAt")));
        List<Integer> sizes = new ArrayList<>();
        sizes.add(slice.getNumberOfElements());
        seen.addAll(ids(slice.getContent()));
        while (slice.hasNext()) {
            slice = orders.findSliceByCustomerId("c1", slice.nextPageable());
            sizes.add(slice.getNumberOfElements());
            seen.addAll(ids(slice.getContent()));
        }
        assertThat(seen).containsExactly("p01", "p06", "p11", "p16", "p21");
        assertThat(sizes.subList(0, 3)).containsExactly(2, 2, 1);
    }

    @Test
    void slicesUnsortedWithinOnePartition() {
        List<String> seen = new ArrayList<>();
        Slice<Order> slice = orders.findSliceByCustomerId("c3", CosmosPageRequest.of(0, 3, null, Sort.unsorted()));
        seen.addAll(ids(slice.getContent()));
        while (slice.hasNext()) {
            slice = orders.findSliceByCustomerId("c3", slice.nextPageable());
            seen.addAll(ids(slice.getContent()));
        }
        assertThat(seen).containsExactlyInAnyOrder("p03", "p08", "p13", "p18", "p23");
    }

    @Test
    void sortOnTwoPathsUsesTheCompositeIndex() {
        List<String> found = ids(orders.findAll(Sort.by("status").and(Sort.by(Sort.Direction.DESC, "total"))));
        assertThat(found).containsExactlyElementsOf(sortedIds(Comparator.comparing(Order::getStatus)
                .thenComparing(Comparator.comparingLong(Order::getTotal).reversed())));
    }

    @Test
    void sortOnTwoPathsWithoutACompositeIndexIsRefused() {
        assertThatThrownBy(() -> ids(orders.findAll(Sort.by("city").and(Sort.by("placedAt")))))
                .isInstanceOf(CosmosBadRequestException.class)
                .satisfies(e -> assertThat(((CosmosAccessException) e).getCosmosException().getMessage())
                        .contains("composite index"));
    }

    @Test
    void sortOnAnExcludedPathIsRefused() {
        assertThatThrownBy(() -> ids(orders.findAll(Sort.by("gift"))))
                .isInstanceOf(CosmosBadRequestException.class)
                .satisfies(e -> assertThat(((CosmosAccessException) e).getCosmosException().getMessage())
                        .contains("order-by item is excluded"));
    }
}
