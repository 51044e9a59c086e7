package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.ReactiveCosmosRepository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The same orders through the reactive repository. */
public interface ReactiveOrderRepository extends ReactiveCosmosRepository<Order, String> {
    Flux<Order> findByCity(String city);

    Flux<Order> findByCustomerIdOrderByTotalDesc(String customerId);

    Mono<Long> countByStatus(String status);

    Mono<Boolean> existsByCity(String city);
}
