package dev.partita.server.http;

import io.netty.util.AsciiString;

/** Header names of the Cosmos DB REST protocol (lower case, as Netty compares them case-insensitively anyway). */
public final class Hdr {
    private Hdr() {
    }

    // request
    public static final AsciiString AUTHORIZATION = AsciiString.cached("authorization");
    public static final AsciiString X_DATE = AsciiString.cached("x-ms-date");
    public static final AsciiString API_VERSION = AsciiString.cached("x-ms-version");
    public static final AsciiString HTTP_DATE = AsciiString.cached("date");
    public static final AsciiString PARTITION_KEY = AsciiString.cached("x-ms-documentdb-partitionkey");
    public static final AsciiString PARTITION_KEY_RANGE_ID = AsciiString.cached("x-ms-documentdb-partitionkeyrangeid");
    public static final AsciiString IS_QUERY = AsciiString.cached("x-ms-documentdb-isquery");
    public static final AsciiString IS_QUERY_GO = AsciiString.cached("x-ms-documentdb-query");
    public static final AsciiString IS_QUERY_PLAN = AsciiString.cached("x-ms-cosmos-is-query-plan-request");
    public static final AsciiString IS_UPSERT = AsciiString.cached("x-ms-documentdb-is-upsert");
    public static final AsciiString IS_BATCH = AsciiString.cached("x-ms-cosmos-is-batch-request");
    public static final AsciiString BATCH_ATOMIC = AsciiString.cached("x-ms-cosmos-batch-atomic");
    public static final AsciiString BATCH_CONTINUE_ON_ERROR =
            AsciiString.cached("x-ms-cosmos-batch-continue-on-error");
    public static final AsciiString INTENDED_COLLECTION_RID = AsciiString.cached("x-ms-cosmos-intended-collection-rid");
    public static final AsciiString OFFER_THROUGHPUT = AsciiString.cached("x-ms-offer-throughput");
    public static final AsciiString OFFER_AUTOPILOT = AsciiString.cached("x-ms-cosmos-offer-autopilot-settings");
    public static final AsciiString SUPPORTED_QUERY_FEATURES = AsciiString.cached("x-ms-cosmos-supported-query-features");
    public static final AsciiString START_EPK = AsciiString.cached("x-ms-start-epk");
    public static final AsciiString END_EPK = AsciiString.cached("x-ms-end-epk");
    public static final AsciiString A_IM = AsciiString.cached("a-im");
    public static final AsciiString IF_MATCH = AsciiString.cached("if-match");
    public static final AsciiString IF_NONE_MATCH = AsciiString.cached("if-none-match");
    public static final AsciiString IF_MODIFIED_SINCE = AsciiString.cached("if-modified-since");
    public static final AsciiString CHANGE_FEED_WIRE_FORMAT_VERSION =
            AsciiString.cached("x-ms-cosmos-changefeed-wire-format-version");
    public static final AsciiString PREFER = AsciiString.cached("prefer");
    public static final AsciiString MAX_ITEM_COUNT = AsciiString.cached("x-ms-max-item-count");
    public static final AsciiString CONTINUATION = AsciiString.cached("x-ms-continuation");
    public static final AsciiString EXPIRY_SECONDS = AsciiString.cached("x-ms-documentdb-expiry-seconds");
    public static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    public static final AsciiString PRIORITY_LEVEL = AsciiString.cached("x-ms-cosmos-priority-level");
    public static final AsciiString POPULATE_QUERY_METRICS = AsciiString.cached("x-ms-documentdb-populatequerymetrics");
    public static final AsciiString QUERY_METRICS = AsciiString.cached("x-ms-documentdb-query-metrics");
    /**
     * Partita's own: the explorer, which has no query pipeline, asks for whole-container answers to queries the
     * gateway would send back with their plan. No client of the service sends it.
     */
    public static final AsciiString WHOLE_CONTAINER_QUERY = AsciiString.cached("x-partita-whole-container-query");
    /** Index metrics as base64 JSON (the Java and .NET SDKs) or, with the V2 header, URI-encoded JSON (the JS SDK). */
    public static final AsciiString POPULATE_INDEX_METRICS = AsciiString.cached("x-ms-cosmos-populateindexmetrics");
    public static final AsciiString POPULATE_INDEX_METRICS_V2 =
            AsciiString.cached("x-ms-cosmos-populateindexmetrics-v2");
    public static final AsciiString INDEX_UTILIZATION = AsciiString.cached("x-ms-cosmos-index-utilization");
    public static final AsciiString CONSISTENCY_LEVEL = AsciiString.cached("x-ms-consistency-level");
    public static final AsciiString POPULATE_QUOTA_INFO = AsciiString.cached("x-ms-documentdb-populatequotainfo");
    public static final AsciiString PRE_TRIGGER_INCLUDE = AsciiString.cached("x-ms-documentdb-pre-trigger-include");
    public static final AsciiString POST_TRIGGER_INCLUDE = AsciiString.cached("x-ms-documentdb-post-trigger-include");
    public static final AsciiString SCRIPT_ENABLE_LOGGING = AsciiString.cached("x-ms-documentdb-script-enable-logging");

    // response
    public static final AsciiString ACTIVITY_ID = AsciiString.cached("x-ms-activity-id");
    public static final AsciiString REQUEST_CHARGE = AsciiString.cached("x-ms-request-charge");
    public static final AsciiString SESSION_TOKEN = AsciiString.cached("x-ms-session-token");
    public static final AsciiString SUBSTATUS = AsciiString.cached("x-ms-substatus");
    public static final AsciiString ETAG = AsciiString.cached("etag");
    public static final AsciiString ALT_CONTENT_PATH = AsciiString.cached("x-ms-alt-content-path");
    public static final AsciiString CONTENT_PATH = AsciiString.cached("x-ms-content-path");
    public static final AsciiString GATEWAY_VERSION = AsciiString.cached("x-ms-gatewayversion");
    public static final AsciiString ITEM_COUNT = AsciiString.cached("x-ms-item-count");
    public static final AsciiString RETRY_AFTER_MS = AsciiString.cached("x-ms-retry-after-ms");
    public static final AsciiString MIN_THROUGHPUT = AsciiString.cached("x-ms-cosmos-min-throughput");
    public static final AsciiString OFFER_REPLACE_PENDING = AsciiString.cached("x-ms-offer-replace-pending");
    public static final AsciiString SCHEMA_VERSION = AsciiString.cached("x-ms-schemaversion");
    public static final AsciiString SCRIPT_LOG_RESULTS = AsciiString.cached("x-ms-documentdb-script-log-results");
    public static final AsciiString MAX_MEDIA_STORAGE_USAGE_MB = AsciiString.cached("x-ms-max-media-storage-usage-mb");
    public static final AsciiString MEDIA_STORAGE_USAGE_MB = AsciiString.cached("x-ms-media-storage-usage-mb");
    public static final AsciiString SERVICE_VERSION = AsciiString.cached("x-ms-serviceversion");
    public static final AsciiString RESOURCE_QUOTA = AsciiString.cached("x-ms-resource-quota");
    public static final AsciiString RESOURCE_USAGE = AsciiString.cached("x-ms-resource-usage");
    public static final AsciiString INDEX_TRANSFORMATION_PROGRESS =
            AsciiString.cached("x-ms-documentdb-collection-index-transformation-progress");
}
