package dev.partita.core.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.Engine;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.MemoryStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** The offer and user/permission registries beside the catalog. */
class UsersAndOffersTest {

    private static Engine engine() {
        return Engine.open(new MemoryStore(), Clock.systemUTC(), Limits.DEFAULTS, (c, i) -> false);
    }

    private static ObjectNode container(String id) {
        ObjectNode o = Json.object().put("id", id);
        o.putObject("partitionKey").put("kind", "Hash").putArray("paths").add("/pk");
        return o;
    }

    @Test
    void usersAndPermissionsHaveServiceShapedRidsAndAreRevocable() {
        try (Engine e = engine()) {
            DatabaseInfo db = e.createDatabase(Json.object().put("id", "d"), Throughput.NONE);
            e.createContainer("d", container("c"), Throughput.NONE, 0);
            Users users = e.users();
            User u = users.createUser(db, Json.object().put("id", "alice"));
            byte[] userRid = ResourceIds.tryDecode(u.rid());
            assertThat(userRid).hasSize(8);
            assertThat(userRid[4] & 0x80).isZero();
            assertThatThrownBy(() -> users.createUser(db, Json.object().put("id", "alice")))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(409));

            ObjectNode body = Json.object().put("id", "p").put("permissionMode", "All").put("resource", "dbs/d/colls/c");
            body.putArray("resourcePartitionKey").add("k");
            Permission p = users.createPermission(db, "alice", body);
            assertThat(ResourceIds.tryDecode(p.rid())).hasSize(16);
            assertThat(p.mode()).isEqualTo("all");
            assertThat(p.partitionKeyValue()).isNotNull();
            assertThat(e.users().permissionByRid(p.rid())).isEqualTo(p);

            assertThatThrownBy(() -> users.createPermission(db, "alice", Json.object().put("id", "q")
                    .put("permissionMode", "Write").put("resource", "dbs/d/colls/c")))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(400));
            assertThatThrownBy(() -> users.createPermission(db, "alice", Json.object().put("id", "q")
                    .put("permissionMode", "Read").put("resource", "dbs/other/colls/c")))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(400));

            users.deleteUser(db, "alice");
            assertThat(users.permissionByRid(p.rid())).isNull();
            assertThat(users.listUsers(db)).isEmpty();
        }
    }

    @Test
    void renamesKeepRidsAndMoveEveryRecord() {
        try (Engine e = engine()) {
            DatabaseInfo db = e.createDatabase(Json.object().put("id", "d"), Throughput.NONE);
            e.createContainer("d", container("c"), Throughput.NONE, 0);
            Users users = e.users();
            User u = users.createUser(db, Json.object().put("id", "old"));
            ObjectNode grant = Json.object().put("id", "p").put("permissionMode", "Read")
                    .put("resource", "dbs/d/colls/c");
            Permission p = users.createPermission(db, "old", grant);

            User renamed = users.replaceUser(db, "old", Json.object().put("id", "new"));
            assertThat(renamed.rid()).isEqualTo(u.rid());
            assertThat(users.userByRid(db, u.rid()).id()).isEqualTo("new");
            assertThatThrownBy(() -> users.readUser(db, "old"))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(404));
            assertThat(users.listPermissions(db, "new")).extracting(Permission::id).containsExactly("p");
            assertThat(users.permissionByRid(p.rid()).userId()).isEqualTo("new");

            Permission moved = users.replacePermission(db, "new", "p", grant.deepCopy().put("id", "q"));
            assertThat(moved.rid()).isEqualTo(p.rid());
            assertThat(users.permissionByRid(p.rid()).id()).isEqualTo("q");
            assertThat(users.listPermissions(db, "new")).extracting(Permission::id).containsExactly("q");

            users.createUser(db, Json.object().put("id", "taken"));
            assertThatThrownBy(() -> users.replaceUser(db, "new", Json.object().put("id", "taken")))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(409));
            users.createPermission(db, "new", grant.deepCopy().put("id", "r"));
            assertThatThrownBy(() -> users.replacePermission(db, "new", "q", grant.deepCopy().put("id", "r")))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(409));
            assertThat(users.permissionByRid(p.rid()).id()).isEqualTo("q");
        }
    }

    @Test
    void offersFollowTheResourcesThroughput() {
        try (Engine e = engine()) {
            e.createDatabase(Json.object().put("id", "d"), Throughput.manual(1000));
            ContainerInfo c = e.createContainer("d", container("c"), Throughput.manual(400), 0);
            e.createContainer("d", container("none"), Throughput.NONE, 0);
            Offers offers = e.offers();
            assertThat(offers.list()).hasSize(2);
            Offers.Offer o = offers.forResource(c.rid());
            assertThat(ResourceIds.tryDecode(o.rid())).hasSize(3);
            assertThat(offers.toJson(o).get("content").get("offerThroughput").asInt()).isEqualTo(400);

            ObjectNode replace = offers.toJson(o);
            replace.putObject("content").putObject("offerAutopilotSettings").put("maxThroughput", 4000);
            Offers.Offer after = offers.replace(o.rid(), replace);
            assertThat(after.rid()).isEqualTo(o.rid());
            assertThat(after.etag()).isNotEqualTo(o.etag());
            assertThat(after.throughput()).isEqualTo(Throughput.autoscale(4000));
            assertThat(e.readContainer("d", "c").throughput()).isEqualTo(Throughput.autoscale(4000));
            assertThat(offers.read(o.rid())).isEqualTo(after);

            assertThatThrownBy(() -> Offers.validate(Throughput.manual(350), Limits.DEFAULTS))
                    .isInstanceOf(ServiceException.class);
            assertThatThrownBy(() -> Offers.validate(Throughput.autoscale(1500), Limits.DEFAULTS))
                    .isInstanceOf(ServiceException.class);
            e.deleteContainer("d", "c");
            assertThatThrownBy(() -> offers.read(o.rid()))
                    .isInstanceOfSatisfying(ServiceException.class, x -> assertThat(x.status()).isEqualTo(404));
        }
    }
}
