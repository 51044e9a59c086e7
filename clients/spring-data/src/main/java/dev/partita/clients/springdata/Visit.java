package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.core.mapping.Container;
import org.springframework.data.annotation.Id;

/**
 * A page visit, under a hierarchical partition key (tenant, then user), with a one-hour default time to live, on
 * autoscale throughput (up to 1,000 RU/s).
 */
@Container(containerName = "visits", hierarchicalPartitionKeyPaths = {"/tenantId", "/userId"}, timeToLive = 3600,
        ru = "1000", autoScale = true)
public class Visit {
    @Id
    private String id;
    private String tenantId;
    private String userId;
    private String page;

    public Visit() {
    }

    public Visit(String id, String tenantId, String userId, String page) {
        this.id = id;
        this.tenantId = tenantId;
        this.userId = userId;
        this.page = page;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getTenantId() {
        return tenantId;
    }

    public void setTenantId(String tenantId) {
        this.tenantId = tenantId;
    }

    public String getUserId() {
        return userId;
    }

    public void setUserId(String userId) {
        this.userId = userId;
    }

    public String getPage() {
        return page;
    }

    public void setPage(String page) {
        this.page = page;
    }
}
