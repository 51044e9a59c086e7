package dev.partita.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import org.junit.jupiter.api.Test;

/** The legacy policy shapes older SDKs send, stored as the service returns them; the 400s for bad ones. */
class IndexingPolicyShapeTest {
    static final String ALL_TYPES = "[\"Point\",\"LineString\",\"Polygon\",\"MultiPolygon\"]";

    static JsonNode shape(String policy) {
        return shape(policy, null);
    }

    static JsonNode shape(String policy, String geospatialConfig) {
        JsonNode stored = IndexingPolicyShape.of(Json.parse(policy, "policy"),
                geospatialConfig == null ? null : Json.parse(geospatialConfig, "config"));
        IndexingPolicy.parse(stored); // what is stored is a valid policy
        return stored;
    }

    static void assertBadRequest(String policy, String geospatialConfig, String... message) {
        assertThatThrownBy(() -> shape(policy, geospatialConfig)).as(policy)
                .isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContainingAll(message);
    }

    @Test
    void anEmptyPolicyIsTheDefault() {
        assertThat(shape("{}")).isEqualTo(Json.parse("""
                {"indexingMode":"consistent","automatic":true,"includedPaths":[{"path":"/*"}],
                 "excludedPaths":[{"path":"/\\"_etag\\"/?"}]}""", "expected"));
    }

    @Test
    void lazyIsReadBackAsConsistent() {
        assertThat(shape("{\"indexingMode\":\"Lazy\",\"automatic\":true}").get("indexingMode").asText())
                .isEqualTo("consistent");
    }

    @Test
    void theLegacyRootAndIndexesAreRewritten() {
        // what the Python SDK's test_collection_indexing_policy sends: one included path, two excluded ones on read
        JsonNode p = shape("""
                {"automatic":true,"indexingMode":"lazy",
                 "includedPaths":[{"path":"/","indexes":[{"kind":"Hash","dataType":"Number","precision":2}]}],
                 "excludedPaths":[{"path":"/\\"systemMetadata\\"/*"}]}""");
        assertThat(p.get("includedPaths")).isEqualTo(Json.parse("[{\"path\":\"/*\"}]", "expected"));
        assertThat(p.get("excludedPaths")).isEqualTo(Json.parse(
                "[{\"path\":\"/\\\"systemMetadata\\\"/*\"},{\"path\":\"/\\\"_etag\\\"/?\"}]", "expected"));
        assertThat(p.has("spatialIndexes")).isFalse();
    }

    @Test
    void aLegacySpatialIndexBecomesASpatialIndexOnItsPath() {
        // the JS SDK's spatial.spec.ts
        JsonNode p = shape("""
                {"includedPaths":[{"path":"/\\"Location\\"/?","indexes":[{"kind":"Spatial","dataType":"Point"}]},
                                  {"path":"/"}]}""");
        assertThat(p.get("includedPaths")).isEqualTo(Json.parse(
                "[{\"path\":\"/\\\"Location\\\"/?\"},{\"path\":\"/*\"}]", "expected"));
        assertThat(p.get("spatialIndexes")).isEqualTo(Json.parse(
                "[{\"path\":\"/\\\"Location\\\"/?\",\"types\":" + ALL_TYPES + "}]", "expected"));
        // the CosmosDB PowerShell module's complex automatic policy: two spatial indexes, on /* and /Location/*
        JsonNode q = shape("""
                {"automatic":true,"indexingMode":"Consistent","includedPaths":[
                  {"path":"/*","indexes":[{"kind":"Range","dataType":"Number","precision":-1},
                    {"kind":"Range","dataType":"String","precision":-1},{"kind":"Spatial","dataType":"Point"}]},
                  {"path":"/Location/*","indexes":[{"kind":"Spatial","dataType":"Point"}]}]}""");
        assertThat(q.get("spatialIndexes").findValuesAsText("path")).containsExactly("/*", "/Location/*");
        assertThat(q.get("includedPaths")).isEqualTo(Json.parse(
                "[{\"path\":\"/*\"},{\"path\":\"/Location/*\"}]", "expected"));
    }

    @Test
    void spatialIndexesAreReturnedWithEveryType() {
        JsonNode p = shape("{\"spatialIndexes\":[{\"path\":\"/location/*\",\"types\":[\"Polygon\"]}]}");
        assertThat(p.get("spatialIndexes")).isEqualTo(Json.parse(
                "[{\"path\":\"/location/*\",\"types\":" + ALL_TYPES + "}]", "expected"));
    }

    @Test
    void aGeometryContainerNeedsBoundingBoxesAndAGeographyOneHasNone() {
        String noBox = "{\"spatialIndexes\":[{\"path\":\"/location/?\",\"types\":[\"Point\"]}]}";
        String box = "{\"spatialIndexes\":[{\"path\":\"/location/?\",\"types\":[\"Point\"],"
                + "\"boundingBox\":{\"xmin\":0,\"ymin\":0,\"xmax\":100,\"ymax\":100}}]}";
        assertThat(shape(box, "{\"type\":\"Geometry\"}").at("/spatialIndexes/0/boundingBox/xmax").asInt())
                .isEqualTo(100);
        assertThat(shape(noBox, "{\"type\":\"Geography\"}").at("/spatialIndexes/0").has("boundingBox")).isFalse();
        assertBadRequest(noBox, "{\"type\":\"Geometry\"}", "boundingBox", "Geometry");
        assertBadRequest(box, "{\"type\":\"Geography\"}", "boundingBox", "Geography");
        assertBadRequest(box, null, "boundingBox", "Geography");
        assertBadRequest(box.replace("\"xmax\":100", "\"xmax\":-1"), "{\"type\":\"Geometry\"}", "'xmin' below");
        assertBadRequest(noBox, "{\"type\":\"Flat\"}", "geospatialConfig");
    }

    @Test
    void anExcludedEtagIsNotAddedTwice() {
        JsonNode p = shape("{\"excludedPaths\":[{\"path\":\"/_etag/?\"}]}");
        assertThat(p.get("excludedPaths").findValuesAsText("path")).containsExactly("/_etag/?");
    }

    @Test
    void anIncludedEtagStaysIncludedAndIsNotExcluded() {
        // Spring Data Cosmos's IndexPolicyUpdateIT: included /"_etag"/?, excluded /*, read back exactly so
        JsonNode p = shape("{\"includedPaths\":[{\"path\":\"/\\\"_etag\\\"/?\"}],\"excludedPaths\":[{\"path\":\"/*\"}]}");
        assertThat(p.get("includedPaths").findValuesAsText("path")).containsExactly("/\"_etag\"/?");
        assertThat(p.get("excludedPaths").findValuesAsText("path")).containsExactly("/*");
    }

    @Test
    void modeNoneKeepsNoPaths() {
        JsonNode p = shape("{\"indexingMode\":\"none\",\"automatic\":false,\"includedPaths\":[{\"path\":\"/*\"}]}");
        assertThat(p.get("includedPaths")).isEmpty();
        assertThat(p.get("excludedPaths")).isEmpty();
        assertThat(p.get("automatic").asBoolean()).isFalse();
    }

    @Test
    void badLegacyIndexesAre400s() {
        String prefix = "{\"includedPaths\":[{\"path\":\"/*\",\"indexes\":[";
        assertBadRequest(prefix + "{\"kind\":\"BTree\",\"dataType\":\"String\"}]}]}", null,
                "'Hash', 'Range' or 'Spatial'");
        assertBadRequest(prefix + "{\"kind\":\"Range\",\"dataType\":\"Point\"}]}]}", null, "[String, Number]");
        assertBadRequest(prefix + "{\"kind\":\"Spatial\",\"dataType\":\"Number\"}]}]}", null, "Point");
        assertBadRequest(prefix + "{\"kind\":\"Hash\",\"dataType\":\"String\",\"precision\":0}]}]}", null,
                "precision");
        assertBadRequest("{\"includedPaths\":[{\"path\":\"/*\",\"indexes\":{}}]}", null, "must be an array");
        assertBadRequest("{\"spatialIndexes\":[{\"path\":\"/l/*\",\"types\":[\"Circle\"]}]}", null, "'Circle'");
        assertBadRequest("{\"spatialIndexes\":[{\"path\":\"/l/*\"}]}", null, "'types'");
        assertBadRequest("{\"spatialIndexes\":[{\"path\":\"/l\",\"types\":[\"Point\"]}]}", null,
                "could not be accepted");
        assertBadRequest("{\"indexingMode\":\"eager\"}", null, "'consistent', 'lazy' or 'none'");
    }
}
