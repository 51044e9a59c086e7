package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import java.util.Optional;

public interface AccountRepository extends CosmosRepository<Account, String> {
    Optional<Account> findByEmail(String email);
}
