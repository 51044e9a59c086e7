package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import java.util.List;

public interface AccountRepository extends CosmosRepository<Account, String> {
    List<Account> findByEmail(String email);
}
