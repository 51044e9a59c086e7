package dev.partita.clients.springdata;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small shop on Spring Data Cosmos: orders (derived queries, paging, a tuned indexing policy), accounts (optimistic
 * locking, auditing) and visits (a hierarchical partition key). It knows nothing of Partita: the account comes from
 * the properties {@code cosmos.endpoint} and {@code cosmos.key}, as it would for a real account or the emulator.
 */
@SpringBootApplication
public class ShopApplication {
    public static void main(String[] args) {
        SpringApplication.run(ShopApplication.class, args);
    }
}
