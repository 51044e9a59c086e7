package dev.partita.core.script;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.account.Etags;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.Bytes;
import dev.partita.core.store.Cursor;
import dev.partita.core.store.Store;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored procedures, triggers and user-defined functions of every container, kept in the container's own key
 * space (so they are durable on a durable store and erased with the container). Each write is one store batch with
 * the container's script counter, which gives every version its {@code _rid} sequence and {@code _etag}.
 */
public final class ScriptCatalog {
    private static final byte COUNTER = 0;

    private final Store store;
    private final Clock clock;
    private final Limits limits;

    public ScriptCatalog(Store store, Clock clock, Limits limits) {
        this.store = store;
        this.clock = clock;
        this.limits = limits;
    }

    /** Every script of one kind, in id order. */
    public List<ScriptResource> list(ContainerInfo c, ScriptKind kind) {
        byte[][] range = StoreKeys.scripts(c.containerId(), kind.tag());
        List<ScriptResource> out = new ArrayList<>();
        try (Cursor cur = store.scan(range[0], range[1])) {
            while (cur.next()) {
                out.add(ScriptResource.decode(kind, cur.value()));
            }
        }
        return out;
    }

    /** The script, or null when there is none. */
    public ScriptResource find(ContainerInfo c, ScriptKind kind, String id) {
        byte[] raw = store.get(StoreKeys.script(c.containerId(), kind.tag(), id));
        return raw == null ? null : ScriptResource.decode(kind, raw);
    }

    /** The script; 404 when there is none. */
    public ScriptResource get(ContainerInfo c, ScriptKind kind, String id) {
        ScriptResource s = find(c, kind, id);
        if (s == null) {
            throw notFound(kind);
        }
        return s;
    }

    /**
     * The bodies of the user-defined functions a query calls, by name: 400 when one does not exist or the query calls
     * more than {@link Limits#maxUdfsPerQuery()}.
     */
    public java.util.Map<String, String> functions(ContainerInfo c, java.util.Set<String> names) {
        if (names.size() > limits.maxUdfsPerQuery()) {
            throw ServiceException.badRequest("The query calls " + names.size() + " user-defined functions; a query"
                    + " may call at most " + limits.maxUdfsPerQuery() + ".");
        }
        java.util.Map<String, String> bodies = new java.util.HashMap<>();
        for (String name : names) {
            ScriptResource f = find(c, ScriptKind.USER_DEFINED_FUNCTION, name);
            if (f == null) {
                throw ServiceException.badRequest("The query calls udf." + name + ", but the container has no"
                        + " user-defined function with that id.");
            }
            bodies.put(name, f.body());
        }
        return bodies;
    }

    public synchronized ScriptResource create(ContainerInfo c, ScriptKind kind, ObjectNode json) {
        ScriptResource.Definition d = ScriptResource.parse(kind, json, limits);
        if (find(c, kind, d.id()) != null) {
            throw ServiceException.conflict("A " + kind.noun() + " with this id already exists in the container.");
        }
        if (list(c, kind).size() >= kind.quota(limits)) {
            throw ServiceException.forbidden(0, "The container already holds " + kind.quota(limits) + " "
                    + kind.path() + ", the most it may hold (its resource quota).");
        }
        return write(c, kind, d, nextSequence(c));
    }

    /** Replaces a script's body (and a trigger's type and operation); its {@code _rid} stays. */
    public synchronized ScriptResource replace(ContainerInfo c, ScriptKind kind, String id, ObjectNode json,
            String ifMatch) {
        ScriptResource old = get(c, kind, id);
        ScriptResource.Definition d = ScriptResource.parse(kind, json, limits);
        if (!d.id().equals(id)) {
            throw ServiceException.badRequest("The id in the body does not match the id in the request path.");
        }
        checkIfMatch(old, ifMatch);
        byte[] rid = ResourceIds.tryDecode(old.rid());
        return write(c, kind, d, rid == null ? nextSequence(c) : ResourceIds.childSequence(rid));
    }

    public synchronized void delete(ContainerInfo c, ScriptKind kind, String id, String ifMatch) {
        checkIfMatch(get(c, kind, id), ifMatch);
        store.apply(new WriteBatch().delete(StoreKeys.script(c.containerId(), kind.tag(), id)));
    }

    private ScriptResource write(ContainerInfo c, ScriptKind kind, ScriptResource.Definition d, long ridSequence) {
        long version = counter(c) + 1;
        String rid = ResourceIds.encode(ResourceIds.script(ResourceIds.tryDecode(c.rid()), ridSequence,
                kind.ridType()));
        ScriptResource s = new ScriptResource(kind, d.id(), d.body(), d.triggerType(), d.triggerOperation(), rid,
                clock.millis() / 1000, Etags.of(c.containerId(), version));
        store.apply(new WriteBatch()
                .put(StoreKeys.script(c.containerId(), kind.tag(), d.id()), s.encode())
                .put(counterKey(c), Bytes.longBytes(Math.max(version, ridSequence))));
        return s;
    }

    /** A new rid sequence; the counter also numbers versions for etags, so it only grows. */
    private long nextSequence(ContainerInfo c) {
        return counter(c) + 1;
    }

    private long counter(ContainerInfo c) {
        return Bytes.longValue(store.get(counterKey(c)));
    }

    private static byte[] counterKey(ContainerInfo c) {
        return StoreKeys.script(c.containerId(), COUNTER, "");
    }

    private static void checkIfMatch(ScriptResource s, String ifMatch) {
        if (ifMatch != null && !Etags.matches(ifMatch, s.etag())) {
            throw ServiceException.preconditionFailed("The " + s.kind().noun() + " was changed since the etag in"
                    + " If-Match was read.");
        }
    }

    static ServiceException notFound(ScriptKind kind) {
        return ServiceException.notFound("The " + kind.noun() + " does not exist.");
    }
}
