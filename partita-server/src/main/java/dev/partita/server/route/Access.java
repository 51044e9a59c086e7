package dev.partita.server.route;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.DatabaseInfo;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.Users;
import dev.partita.core.partition.PartitionKeyValue;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;

/**
 * What a principal may do once its resource is resolved: read-only keys may only read; resource tokens reach only the
 * container or item their permission names (reading the container itself and its partition key ranges is allowed with
 * a token for any item in it, as the SDK needs both), only within the permission's partition key when it names one,
 * and only reads for {@code read} permissions.
 */
final class Access {
    private final RouteContext ctx;

    Access(RouteContext ctx) {
        this.ctx = ctx;
    }

    /** What part of a container a request touches. */
    enum Part { CONTAINER, PKRANGES, DOCS, DOC, OTHER_CHILDREN }

    /** Read-only keys write nothing. */
    static void checkWrite(Principal who, Exchange ex) {
        if (who instanceof Principal.MasterKey m && m.readOnly() && !ex.isRead()) {
            throw ServiceException.forbidden(SubStatus.WRITE_FORBIDDEN_READ_ONLY_KEY,
                    "A read-only key cannot change anything; sign writes with a read-write key.");
        }
    }

    /** Account-level resources (databases, offers, users, permissions) need a master key. */
    static void checkMasterOnly(Principal who, String what) {
        if (who instanceof Principal.ResourceToken) {
            throw forbidden("A resource token cannot access " + what + "; it reaches only its permission's resource.");
        }
    }

    /** Permissions hold resource tokens, so read-only keys may not read them either. */
    static void checkPermissionsAccess(Principal who) {
        checkMasterOnly(who, "users and permissions");
        if (who instanceof Principal.MasterKey m && m.readOnly()) {
            throw forbidden("A read-only key cannot read permissions (they carry resource tokens).");
        }
    }

    /** The scope check of resource tokens for a request under a container. */
    void checkContainer(Principal who, Exchange ex, DatabaseInfo db, ContainerInfo c, Part part, String itemId) {
        if (!(who instanceof Principal.ResourceToken t)) {
            return;
        }
        Users.Permission p = t.permission();
        String[] scope = scope(p);
        if (scope == null || !scope[0].equals(db.id()) || !scope[1].equals(c.id())) {
            throw outOfScope();
        }
        if (p.readOnly() && !ex.isRead()) {
            throw forbidden("The resource token grants read access only.");
        }
        String item = scope[2];
        switch (part) {
            case CONTAINER, OTHER_CHILDREN -> {
                if (item != null && !ex.isRead()) {
                    throw outOfScope();
                }
            }
            case PKRANGES -> {
            }
            case DOCS -> {
                if (item != null) {
                    throw outOfScope();
                }
            }
            case DOC -> {
                if (item != null && !item.equals(itemId)) {
                    throw outOfScope();
                }
            }
        }
        if (p.partitionKey() != null && (part == Part.DOCS || part == Part.DOC)) {
            String header = ex.header(Hdr.PARTITION_KEY);
            if (header == null || !PartitionKeyValue.fromHeader(header).equals(p.partitionKeyValue())) {
                throw forbidden("The resource token is limited to one partition key; the request names another (or"
                        + " none).");
            }
        }
    }

    /** The permission's resource as names: database id, container id, item id or null; null if it cannot resolve. */
    private String[] scope(Users.Permission p) {
        String[] s = p.resource().split("/");
        if (s.length < 4) {
            return null;
        }
        try {
            String db = ResourceIds.isDatabaseRid(s[1]) ? ctx.engine.databaseByRid(s[1]).id() : s[1];
            byte[] coll = ResourceIds.isDatabaseRid(s[1]) ? ResourceIds.tryDecode(s[3]) : null;
            String container = coll != null && coll.length == 8 ? ctx.engine.containerByRid(s[3]).id() : s[3];
            String item = s.length >= 6 && s[4].equals("docs") ? s[5] : null;
            if (s.length >= 6 && item == null) {
                // a permission on a stored procedure, trigger or function reaches no items
                item = "\u0000" + s[4];
            }
            return new String[] {db, container, item};
        } catch (ServiceException e) {
            return null;
        }
    }

    static ServiceException forbidden(String message) {
        return ServiceException.forbidden(0, message);
    }

    private static ServiceException outOfScope() {
        return ServiceException.forbidden(0, "The resource token does not reach this resource; its permission names"
                + " another one.");
    }
}
