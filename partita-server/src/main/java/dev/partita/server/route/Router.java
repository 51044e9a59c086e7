package dev.partita.server.route;

import dev.partita.core.request.RequestOptions;
import dev.partita.server.auth.Authenticator;
import dev.partita.server.auth.Principal;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.core.error.ServiceException;
import dev.partita.server.http.ErrorReplies;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.function.Supplier;

/**
 * Parses the path, authenticates the request, and hands it to the handler of its resource type:
 *
 * <pre>
 * /                                        AccountRoutes
 * /dbs, /dbs/{db}                          DatabaseRoutes
 * /dbs/{db}/colls, .../colls/{c}           ContainerRoutes
 * .../colls/{c}/pkranges                   PartitionKeyRangeRoutes
 * .../colls/{c}/docs, .../docs/{id}        DocumentRoutes (queries and feeds: QueryRoutes)
 * .../colls/{c}/operations/partitionkeydelete   PartitionKeyDeleteRoutes
 * .../colls/{c}/sprocs|triggers|udfs[/{id}] ScriptRoutes
 * /dbs/{db}/users, .../users/{u}           UserRoutes
 * .../users/{u}/permissions[/{p}]          PermissionRoutes
 * /dbs/{db}/clientencryptionkeys[/{k}]     ClientEncryptionKeyRoutes
 * /offers, /offers/{rid}                   OfferRoutes
 * /_partita/faults                         FaultRoutes (Partita's fault injection, not a Cosmos DB resource)
 * </pre>
 */
public final class Router implements Dispatcher {
    private final Authenticator authenticator;
    private final AccountRoutes account;
    private final DatabaseRoutes databases;
    private final ContainerRoutes containers;
    private final PartitionKeyRangeRoutes pkranges;
    private final DocumentRoutes documents;
    private final PartitionKeyDeleteRoutes partitionKeyDeletes;
    private final ScriptRoutes scripts;
    private final OfferRoutes offers;
    private final UserRoutes users;
    private final PermissionRoutes permissions;
    private final ClientEncryptionKeyRoutes encryptionKeys;
    private final Authorization authorization;
    private final FaultRoutes faults;
    private final dev.partita.core.Engine engine;

    /** @param advertisedHost {@code host:port} the account read advertises when a request has no Host header */
    public Router(RouteContext ctx, Authenticator authenticator, Supplier<String> advertisedHost) {
        this.authenticator = authenticator;
        this.authorization = new Authorization(ctx);
        this.faults = new FaultRoutes(ctx);
        this.account = new AccountRoutes(advertisedHost, ctx.engine().capacity());
        this.databases = new DatabaseRoutes(ctx);
        this.containers = new ContainerRoutes(ctx);
        this.pkranges = new PartitionKeyRangeRoutes(ctx);
        this.documents = new DocumentRoutes(ctx, new QueryRoutes(ctx.engine().clock()));
        this.partitionKeyDeletes = new PartitionKeyDeleteRoutes(ctx);
        this.scripts = new ScriptRoutes(ctx);
        this.offers = new OfferRoutes(ctx);
        this.users = new UserRoutes(ctx);
        this.permissions = new PermissionRoutes(ctx);
        this.encryptionKeys = new ClientEncryptionKeyRoutes(ctx, authorization);
        this.engine = ctx.engine;
    }

    @Override
    public Reply handle(Exchange ex) {
        return answer(ex, this::route);
    }

    /**
     * A point read ({@code GET .../docs/{id}}) when the engine answers it without waiting (the item's key in the
     * store's memory, no fault rule in force: {@code ContainerHandle.readWithoutWaiting}), or a create or upsert
     * ({@code POST .../docs}) on a store that writes to memory whose partition's writer is free
     * ({@code ContainerHandle.writeWithoutWaiting}); else null. Authentication, routing, the store's work and pricing
     * are then CPU work on memory, and the event loop may answer it; the reply is the one {@link #handle} gives.
     * Everything else (other writes, queries, feeds, reads that need the disk) keeps its virtual thread; so does a
     * resource token on a store whose reads may wait, since its permission is read there.
     */
    @Override
    public Reply handleWithoutWaiting(Exchange ex) {
        List<String> s = ex.segments();
        boolean items = s.size() >= 5 && s.size() <= 6 && s.get(0).equals("dbs") && s.get(2).equals("colls")
                && s.get(4).equals("docs");
        if (!items) {
            return null;
        }
        if (s.size() == 5 && ex.method().equals(HttpMethod.POST)) {
            return engine.store().readsNeverBlock() && DocumentRoutes.isPlainWrite(ex) ? answer(ex, (e, path, who) -> documents.writeWithoutWaiting(e,
                    path, RequestHeaders.options(e, authorization.scope(who)))) : null;
        }
        boolean pointRead = s.size() == 6 && ex.method().equals(HttpMethod.GET);
        if (!pointRead || !engine.store().readsNeverBlock() && authenticator.readsStore(ex.header(Hdr.AUTHORIZATION))) {
            return null;
        }
        return answer(ex, (e, path, who) -> documents.readWithoutWaiting(e, path,
                RequestHeaders.options(e, authorization.scope(who))));
    }

    /** What a route gives for an authenticated request (null: it would wait). */
    @FunctionalInterface
    private interface Route {
        Reply reply(Exchange ex, ResourcePath path, Principal who);
    }

    /**
     * Authenticates the request (once: a request {@link #handleWithoutWaiting} authenticated and then gave up on keeps
     * its principal) and gives the route's reply, or null when the route gives none.
     */
    private Reply answer(Exchange ex, Route route) {
        ResourcePath path = ResourcePath.of(ex.segments());
        Principal who = ex.principal();
        if (who == null) {
            who = authenticator.authenticate(ex.method().name(), ex.header(Hdr.AUTHORIZATION),
                    ex.header(Hdr.X_DATE), ex.header(Hdr.HTTP_DATE), path.authType(), path.authLink());
            ex.authenticatedAs(who);
        }
        Authorization.checkWrite(who, ex);
        Reply reply;
        try {
            reply = route.reply(ex, path, who);
        } catch (ServiceException e) {
            // an authenticated request the engine refused is charged (429s are not)
            Reply error = ErrorReplies.of(e, ex.activityId()).charge(engine.chargeOf(e));
            return e.sessionToken() == null ? error : error.header(Hdr.SESSION_TOKEN, e.sessionToken());
        }
        if (reply != null && !reply.headers().contains(Hdr.REQUEST_CHARGE)) {
            // databases, containers, offers, users, permissions, partition key ranges: metadata requests
            reply.charge(engine.metadataCharge());
        }
        return reply;
    }

    private Reply route(Exchange ex, ResourcePath path, Principal who) {
        int n = path.size();
        if (n == 0) {
            return account.handle(ex);
        }
        if (ResourcePath.control(path.segments())) {
            Authorization.checkMasterOnly(who, "the fault-injection controls");
            return faults.handle(ex);
        }
        if (path.seg(0).equals("offers")) {
            Authorization.checkMasterOnly(who, "offers");
            return n == 1 ? offers.feed(ex) : offers.one(ex, path);
        }
        if (n <= 2) {
            Authorization.checkMasterOnly(who, "databases");
            return n == 1 ? databases.feed(ex) : databases.one(ex, path);
        }
        if (path.seg(2).equals("users")) {
            Authorization.checkPermissionsAccess(who);
            return switch (n) {
                case 3 -> users.feed(ex, path);
                case 4 -> users.one(ex, path);
                case 5 -> permissions.feed(ex, path);
                default -> permissions.one(ex, path);
            };
        }
        if (path.seg(2).equals(ResourcePath.CLIENT_ENCRYPTION_KEYS)) {
            return n == 3 ? encryptionKeys.feed(ex, path, who) : encryptionKeys.one(ex, path, who);
        }
        if (n == 3) {
            Authorization.checkMasterOnly(who, "the list of containers");
            return containers.feed(ex, path);
        }
        RequestOptions options = RequestHeaders.options(ex, authorization.scope(who));
        if (n == 4) {
            return containers.one(ex, path, options);
        }
        return switch (path.seg(4)) {
            case "docs" -> n == 5 ? documents.feed(ex, path, options) : documents.one(ex, path, options);
            case "pkranges" -> pkranges.handle(ex, path, options);
            case "operations" -> partitionKeyDeletes.handle(ex, path, options);
            case "sprocs", "triggers", "udfs" -> scripts.handle(ex, path, options);
            default -> containers.unsupportedChildren(ex, path, options);
        };
    }
}
