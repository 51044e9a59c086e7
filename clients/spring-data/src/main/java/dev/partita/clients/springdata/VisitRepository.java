package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.repository.CosmosRepository;
import java.util.List;

public interface VisitRepository extends CosmosRepository<Visit, String> {
    List<Visit> findByTenantId(String tenantId);

    List<Visit> findByTenantIdAndUserId(String tenantId, String userId);
}
