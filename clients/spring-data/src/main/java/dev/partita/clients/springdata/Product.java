package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.core.mapping.Container;
import com.azure.spring.data.cosmos.core.mapping.CosmosIndexingPolicy;
import com.azure.spring.data.cosmos.core.mapping.PartitionKey;
import org.springframework.data.annotation.Id;

/**
 * A catalogue product whose indexing policy the application owns: {@code overwritePolicy} makes the framework
 * replace the container's policy at startup when it differs (someone changed it by hand).
 */
@Container(containerName = "products")
@CosmosIndexingPolicy(overwritePolicy = true, includePaths = "/*", excludePaths = "/description/?")
public class Product {
    @Id
    private String id;
    @PartitionKey
    private String category;
    private String description;

    public Product() {
    }

    public Product(String id, String category, String description) {
        this.id = id;
        this.category = category;
        this.description = description;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getCategory() {
        return category;
    }

    public void setCategory(String category) {
        this.category = category;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }
}
