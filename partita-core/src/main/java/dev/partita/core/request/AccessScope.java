package dev.partita.core.request;

import dev.partita.core.error.ServiceException;
import dev.partita.core.partition.PartitionKeyValue;

/**
 * What the caller may reach: everything (a master key), or what one resource token's permission names — one
 * container, optionally one item or one script resource in it, optionally one partition key, read-only or not. The
 * engine checks it for every operation, including each operation of a batch or bulk request, every query and
 * change-feed read, and every container-level request.
 *
 * <p>A resource token reaches data, never management: it may read its container (the SDKs need its properties and
 * partition key ranges) but not replace or delete it, and it never reaches databases, offers, users or permissions
 * (the gateway refuses those before the engine is asked).
 *
 * @param databaseId   the permission's database (null only for {@link #UNRESTRICTED})
 * @param containerId  the permission's container
 * @param itemId       the one item the permission names by its id, or null
 * @param itemRid      the one item the permission names by its {@code _rid} (its {@code _self} link), or null: the
 *                     engine compares it with the stored item's ({@link #namesItemByRid})
 * @param childKind    the kind of a non-item child the permission names ({@code sprocs}, {@code triggers},
 *                     {@code udfs}, ...) — it then reaches no items — or null
 * @param partitionKey the one partition key the permission is limited to, or null
 * @param readOnly     a {@code Read} permission
 */
public record AccessScope(String databaseId, String containerId, String itemId, String itemRid, String childKind,
        PartitionKeyValue partitionKey, boolean readOnly) {

    /** A master key's reach: everything. */
    public static final AccessScope UNRESTRICTED = new AccessScope(null, null, null, null, null, null, false);

    /** A permission whose resource no longer resolves: nothing. */
    public static AccessScope nothing() {
        return new AccessScope("", "", null, null, null, null, true);
    }

    /** The permission names one item by its rid, which only the stored item can be compared with. */
    public boolean namesItemByRid() {
        return isRestricted() && itemRid != null;
    }

    /** The item whose stored rid is {@code rid} (null: there is no such item) is the one the permission names. */
    public void checkItemRid(String rid) {
        if (namesItemByRid() && !itemRid.equals(rid)) {
            throw outOfScope();
        }
    }

    public boolean isRestricted() {
        return this != UNRESTRICTED;
    }

    /** The container itself or anything in it may be reached (for reads; {@code write} for writes). */
    public void checkContainer(String databaseId, String containerId, boolean write) {
        if (!isRestricted()) {
            return;
        }
        if (!this.databaseId.equals(databaseId) || !this.containerId.equals(containerId)) {
            throw outOfScope();
        }
        if (write && readOnly) {
            throw forbidden("The resource token grants read access only.");
        }
    }

    /** Replacing or deleting a container is management: master keys only. */
    public void checkManagement() {
        if (isRestricted()) {
            throw forbidden("A resource token cannot replace or delete a container; use the account key.");
        }
    }

    /** The request reaches every item of the container (feeds, queries, creates, batches). */
    public void checkAllItems() {
        if (isRestricted() && (itemId != null || itemRid != null || childKind != null)) {
            throw outOfScope();
        }
    }

    /** The request reaches the item {@code id}. */
    public void checkItem(String id) {
        if (isRestricted() && (childKind != null || itemId != null && !itemId.equals(id))) {
            throw outOfScope();
        }
    }

    /** The request reaches a non-item child of the container (stored procedures, triggers, ...). */
    public void checkChild(boolean write) {
        if (isRestricted() && (itemId != null || itemRid != null) && write) {
            throw outOfScope();
        }
    }

    /** The operation runs in the logical partition {@code pk} (null: the request named none). */
    public void checkPartitionKey(PartitionKeyValue pk) {
        if (isRestricted() && partitionKey != null && (pk == null || !partitionKey.equals(pk))) {
            throw forbidden("The resource token is limited to one partition key; the request names another (or"
                    + " none).");
        }
    }

    private static ServiceException outOfScope() {
        return forbidden("The resource token does not reach this resource; its permission names another one.");
    }

    private static ServiceException forbidden(String message) {
        return ServiceException.forbidden(0, message);
    }
}
