package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosDatabase;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.models.CosmosDatabaseProperties;
import com.azure.cosmos.models.CosmosUserProperties;
import com.azure.cosmos.models.SqlParameter;
import com.azure.cosmos.models.SqlQuerySpec;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Queries over databases, users and the like run the SQL of item queries, through the Java SDK: the SDK's own
 * {@code PermissionQueryTest.invalidQuerySytax} (and its user, database and script siblings) expects 400 for a text
 * that is no query, and a filter with a function or {@code !=} filters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetadataQuerySdkTest {
    TestServers t;
    CosmosClient client;
    CosmosDatabase db;

    @BeforeAll
    void start() {
        t = TestServers.http();
        client = t.client();
        client.createDatabase("meta1");
        client.createDatabase("meta2");
        db = client.getDatabase("meta1");
        for (String id : List.of("u1", "u2", "zz3")) {
            db.createUser(new CosmosUserProperties().setId(id));
        }
    }

    @AfterAll
    void stop() {
        client.close();
        t.close();
    }

    @Test
    void aTextThatIsNoQueryIsThe400OfAnItemQuery() {
        assertThatThrownBy(() -> db.queryUsers("I am an invalid query").iterator().next())
                .isInstanceOfSatisfying(CosmosException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getActivityId()).isNotBlank();
                    assertThat(e.getShortMessage()).contains("\"code\":\"SC1001\"");
                });
        assertThatThrownBy(() -> client.queryDatabases("SELECT * FRM r", null).iterator().next())
                .isInstanceOfSatisfying(CosmosException.class, e -> assertThat(e.getStatusCode()).isEqualTo(400));
    }

    @Test
    void filtersWithFunctionsAndInequalitiesFilter() {
        assertThat(userIds("SELECT * FROM r WHERE STARTSWITH(r.id, 'zz')")).containsExactly("zz3");
        assertThat(userIds("SELECT * FROM r WHERE r.id != 'u1'")).containsExactlyInAnyOrder("u2", "zz3");
        assertThat(userIds("SELECT * FROM r ORDER BY r.id DESC")).containsExactly("zz3", "u2", "u1");
        List<String> dbs = client.queryDatabases(new SqlQuerySpec("SELECT * FROM root r WHERE r.id = @id",
                new SqlParameter("@id", "meta2")), null).stream().map(CosmosDatabaseProperties::getId).toList();
        assertThat(dbs).containsExactly("meta2");
    }

    private List<String> userIds(String query) {
        return db.queryUsers(query).stream().map(CosmosUserProperties::getId).toList();
    }
}
