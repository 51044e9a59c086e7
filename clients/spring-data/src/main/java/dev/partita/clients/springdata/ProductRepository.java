package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;

public interface ProductRepository extends CosmosRepository<Product, String> {
}
