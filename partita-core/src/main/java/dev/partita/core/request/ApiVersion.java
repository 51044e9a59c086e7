package dev.partita.core.request;

/**
 * The REST API version a request names in {@code x-ms-version} (e.g. {@code 2020-07-15}, what the Java and JavaScript
 * SDKs send). Only one rule depends on it today: before {@code 2018-12-31} a container could be created without a
 * partition key (a non-partitioned, "fixed" container); from that version on the body must define one (REST reference,
 * "Create Collection").
 *
 * @param value the header's value; versions are ISO dates, so they order as strings
 */
public record ApiVersion(String value) {

    /** The version the current SDKs send; also what a request without the header is taken to mean. */
    public static final ApiVersion CURRENT = new ApiVersion("2020-07-15");

    /** The first version that refuses a container without a partition key. */
    private static final String PARTITION_KEY_REQUIRED = "2018-12-31";

    public ApiVersion {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("an API version is a date such as 2020-07-15");
        }
        value = value.trim();
    }

    /** The version of {@code x-ms-version}; a missing header is {@link #CURRENT}. */
    public static ApiVersion fromHeader(String header) {
        return header == null || header.isBlank() ? CURRENT : new ApiVersion(header);
    }

    /** True for versions that still create a non-partitioned container from a body without {@code partitionKey}. */
    public boolean allowsNonPartitionedContainers() {
        return value.compareTo(PARTITION_KEY_REQUIRED) < 0;
    }
}
