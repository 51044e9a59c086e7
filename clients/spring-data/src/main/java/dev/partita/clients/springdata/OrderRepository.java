package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import com.azure.spring.data.cosmos.repository.Query;
import java.util.Collection;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.Param;

/** Derived queries of each kind the framework generates SQL for, and two written ones. */
public interface OrderRepository extends CosmosRepository<Order, String> {
    List<Order> findByCustomerId(String customerId);

    List<Order> findByCustomerIdAndStatus(String customerId, String status);

    List<Order> findByStatusOrCity(String status, String city);

    List<Order> findByStatusIn(Collection<String> statuses);

    List<Order> findByStatusNotIn(Collection<String> statuses);

    List<Order> findByTotalBetween(long from, long to);

    List<Order> findByTotalGreaterThanEqualOrderByTotalDesc(long min);

    List<Order> findByTotalLessThan(long max, Sort sort);

    List<Order> findByPlacedAtAfterAndPlacedAtBefore(long after, long before);

    List<Order> findByCustomerIdOrderByPlacedAtDesc(String customerId);

    List<Order> findByCityStartsWith(String prefix);

    List<Order> findByCityEndsWith(String suffix);

    List<Order> findByCityContaining(String part);

    List<Order> findByCityIgnoreCase(String city);

    List<Order> findByStatusNot(String status);

    List<Order> findByTagsContaining(String tag);

    List<Order> findByNoteIsNull();

    List<Order> findByNoteIsNotNull();

    List<Order> findByGiftTrue();

    List<Order> findTop2ByStatusOrderByTotalDesc(String status);

    long countByStatus(String status);

    long countByCustomerId(String customerId);

    boolean existsByCustomerIdAndStatus(String customerId, String status);

    Page<Order> findByStatus(String status, Pageable pageable);

    Slice<Order> findSliceByCustomerId(String customerId, Pageable pageable);

    void deleteByCustomerId(String customerId);

    @Query("SELECT * FROM o WHERE o.total > @min AND o.city = @city")
    List<Order> expensiveIn(@Param("min") long min, @Param("city") String city);

    @Query("SELECT VALUE COUNT(1) FROM o WHERE o.status = @status")
    long countWritten(@Param("status") String status);
}
