package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import com.azure.spring.data.cosmos.repository.Query;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    List<Order> findByCityStartsWithIgnoreCase(String prefix);

    List<Order> findByCityContainingIgnoreCase(String part);

    List<Order> findByShipToZip(String zip);

    List<Order> findByIdIn(Collection<String> ids);

    List<Order> findByTotalGreaterThanAndCityNotIn(long min, Collection<String> cities);

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

    @Query("SELECT * FROM o WHERE ARRAY_CONTAINS(o.tags, @tag)")
    List<Order> withTag(@Param("tag") String tag);

    @Query("SELECT VALUE COUNT(1) FROM o WHERE o.status = @status")
    long countWritten(@Param("status") String status);

    /** The framework expands a collection parameter into @statuses0, @statuses1, ... */
    @Query("SELECT * FROM o WHERE o.status IN (@statuses)")
    List<Order> withStatuses(@Param("statuses") List<String> statuses);

    @Query("SELECT * FROM o WHERE o.city = @city")
    List<Order> inCity(@Param("city") String city, Sort sort);

    /** Paged: the framework appends the ORDER BY and counts with "select value count(1) FROM ...". */
    @Query("SELECT * FROM o WHERE o.total >= @min")
    Page<Order> pageAtLeast(@Param("min") long min, Pageable pageable);

    @Query("SELECT * FROM o WHERE o.customerId = @customerId")
    Slice<Order> sliceOf(@Param("customerId") String customerId, Pageable pageable);

    @Query("SELECT VALUE SUM(o.total) FROM o WHERE o.customerId = @customerId")
    long totalOf(@Param("customerId") String customerId);

    @Query("SELECT o.status, COUNT(1) AS n, SUM(o.total) AS total FROM o GROUP BY o.status")
    List<ObjectNode> countsByStatus();

    @Query("SELECT DISTINCT VALUE o.city FROM o")
    List<String> cities();
}
