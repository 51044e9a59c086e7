package dev.partita.core.item;

/**
 * Which stored item versions a read sees at one moment: those not expired (TTL) and not gone with a delete of their
 * partition key ({@link PartitionDeletes}). Both kinds stay in the store until the background removes them.
 *
 * <p>A read of a snapshot takes the deletes from the same snapshot ({@link PartitionDeletes#load}); a point read takes
 * the container's published deletes <em>before</em> reading the store: a delete is forgotten only after its last item
 * is gone, so a read never sees an item without its delete.
 */
public record Visibility(long nowSeconds, PartitionDeletes deletes) {

    public boolean sees(String epk, StoredItem item) {
        return item.isLiveAt(nowSeconds) && !deletes.hides(epk, item);
    }

    /** {@link #sees(String, StoredItem)} for an item known by its store key. */
    public boolean sees(byte[] itemKey, StoredItem item) {
        return item.isLiveAt(nowSeconds) && !deletes.hides(itemKey, item);
    }
}
