package dev.partita.clients.springdata;

import com.azure.cosmos.models.CompositePathSortOrder;
import com.azure.spring.data.cosmos.core.mapping.CompositeIndex;
import com.azure.spring.data.cosmos.core.mapping.CompositeIndexPath;
import com.azure.spring.data.cosmos.core.mapping.Container;
import com.azure.spring.data.cosmos.core.mapping.CosmosIndexingPolicy;
import com.azure.spring.data.cosmos.core.mapping.PartitionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.data.annotation.Id;

/**
 * An order, partitioned by customer. The container is created by the framework with 400 RU/s and a tuned indexing
 * policy: only the queried paths are indexed, plus one composite index for "status, then total descending".
 */
@Container(containerName = "orders", partitionKeyPath = "/customerId", ru = "400")
@CosmosIndexingPolicy(
        includePaths = {"/customerId/?", "/status/?", "/total/?", "/placedAt/?", "/city/?", "/tags/[]/?", "/note/?",
                "/shipTo/zip/?"},
        excludePaths = {"/*"},
        compositeIndexes = @CompositeIndex(paths = {
                @CompositeIndexPath(path = "/status"),
                @CompositeIndexPath(path = "/total", order = CompositePathSortOrder.DESCENDING)}))
public class Order {
    @Id
    private String id;
    @PartitionKey
    private String customerId;
    private String status;
    private long total;
    private long placedAt;
    private String city;
    private List<String> tags = new ArrayList<>();
    private String note;
    private boolean gift;
    private Address shipTo;

    public Order() {
    }

    public Order(String id, String customerId, String status, long total, long placedAt, String city) {
        this.id = id;
        this.customerId = customerId;
        this.status = status;
        this.total = total;
        this.placedAt = placedAt;
        this.city = city;
    }

    public Order tags(String... values) {
        this.tags = new ArrayList<>(List.of(values));
        return this;
    }

    public Order note(String value) {
        this.note = value;
        return this;
    }

    public Order gift(boolean value) {
        this.gift = value;
        return this;
    }

    public Order shipTo(String street, String zip) {
        this.shipTo = new Address(street, zip);
        return this;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getCustomerId() {
        return customerId;
    }

    public void setCustomerId(String customerId) {
        this.customerId = customerId;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public long getTotal() {
        return total;
    }

    public void setTotal(long total) {
        this.total = total;
    }

    public long getPlacedAt() {
        return placedAt;
    }

    public void setPlacedAt(long placedAt) {
        this.placedAt = placedAt;
    }

    public String getCity() {
        return city;
    }

    public void setCity(String city) {
        this.city = city;
    }

    public List<String> getTags() {
        return tags;
    }

    public void setTags(List<String> tags) {
        this.tags = tags;
    }

    public String getNote() {
        return note;
    }

    public void setNote(String note) {
        this.note = note;
    }

    public boolean isGift() {
        return gift;
    }

    public void setGift(boolean gift) {
        this.gift = gift;
    }

    public Address getShipTo() {
        return shipTo;
    }

    public void setShipTo(Address shipTo) {
        this.shipTo = shipTo;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Order other && Objects.equals(id, other.id) && Objects.equals(customerId, other.customerId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, customerId);
    }

    @Override
    public String toString() {
        return "Order[" + id + "/" + customerId + " " + status + " " + total + "]";
    }
}
