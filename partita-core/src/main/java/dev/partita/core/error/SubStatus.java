package dev.partita.core.error;

/** The service's sub-status codes that Partita produces (sent as {@code x-ms-substatus}). */
public final class SubStatus {
    private SubStatus() {
    }

    public static final int NONE = 0;
    public static final int PARTITION_KEY_MISMATCH = 1001;
    public static final int PARTITION_KEY_RANGE_GONE = 1002;
    /** With a 404: the partition has not caught up with the session token the read carries (the SDKs retry). */
    public static final int READ_SESSION_NOT_AVAILABLE = 1002;
    public static final int OWNER_RESOURCE_NOT_FOUND = 1003;
    public static final int CROSS_PARTITION_QUERY_NOT_SERVABLE = 1004;
    public static final int COMPLETING_SPLIT = 1007;
    public static final int LOGICAL_PARTITION_FULL = 1014;
    public static final int STALE_CONTAINER_RID = 1024;
    public static final int WRITE_FORBIDDEN_READ_ONLY_KEY = 5;
    public static final int USER_REQUEST_RATE_TOO_LARGE = 3200;
    public static final int INVALID_ID_VALUE = 10102;
}
