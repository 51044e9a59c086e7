package dev.partita.core.error;

/**
 * The one error type of the engine: an HTTP status, a sub-status, the service's error code and a message.
 *
 * <p>The gateway turns it into the service's JSON error body and the {@code x-ms-substatus} header. Messages name the
 * problem and the fix; they never contain document values or partition key values.
 */
public final class ServiceException extends RuntimeException {

    private final int status;
    private final int subStatus;
    private final long retryAfterMillis;
    /** The service's {@code additionalErrorInfo} (a query plan for a query that needs one), or null. */
    private final String additionalErrorInfo;
    /** What the engine charged for the failed request, once it has (NaN before). */
    private volatile double requestCharge = Double.NaN;
    /** The session token of the partition that refused an item operation, or null. */
    private volatile String sessionToken;

    public ServiceException(int status, int subStatus, String message) {
        this(status, subStatus, message, 0);
    }

    public ServiceException(int status, int subStatus, String message, long retryAfterMillis) {
        this(status, subStatus, message, retryAfterMillis, null);
    }

    private ServiceException(int status, int subStatus, String message, long retryAfterMillis,
            String additionalErrorInfo) {
        super(message, null, false, false);
        this.status = status;
        this.subStatus = subStatus;
        this.retryAfterMillis = retryAfterMillis;
        this.additionalErrorInfo = additionalErrorInfo;
    }

    /**
     * A 400 for a query sent straight to the items that only the SDK's query pipeline can run: the service puts the
     * query plan in {@code additionalErrorInfo}, and an SDK that tried the query optimistically then runs the plan.
     */
    public static ServiceException needsQueryPlan(String message, String planJson) {
        return new ServiceException(400, 0, message, 0, planJson);
    }

    /** {@link #needsQueryPlan} with the service's sub-status for the reason. */
    public static ServiceException needsQueryPlan(int subStatus, String message, String planJson) {
        return new ServiceException(400, subStatus, message, 0, planJson);
    }

    /** The query plan of a {@link #needsQueryPlan} error, or null. */
    public String additionalErrorInfo() {
        return additionalErrorInfo;
    }

    public int status() {
        return status;
    }

    public int subStatus() {
        return subStatus;
    }

    public long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** Records what the engine charged for the failed request; returns this exception, to rethrow. */
    public ServiceException charged(double ru) {
        requestCharge = ru;
        return this;
    }

    /** What the failed request was charged, or NaN when the engine did not price it. */
    public double requestCharge() {
        return requestCharge;
    }

    /**
     * Records the session token of the partition that refused the request (a 404, 409 or 412 of an item: the SDKs
     * record it as they do a success's); returns this exception, to rethrow.
     */
    public ServiceException withSessionToken(String token) {
        sessionToken = token;
        return this;
    }

    /** The session token to answer with, or null. */
    public String sessionToken() {
        return sessionToken;
    }

    /** The service's error code for the status, e.g. {@code BadRequest}. */
    public String code() {
        return codeFor(status);
    }

    public static String codeFor(int status) {
        return switch (status) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 408 -> "RequestTimeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 412 -> "PreconditionFailed";
            case 413 -> "RequestEntityTooLarge";
            case 423 -> "Locked";
            case 424 -> "FailedDependency";
            case 429 -> "TooManyRequests";
            case 449 -> "RetryWith";
            case 503 -> "ServiceUnavailable";
            default -> "InternalServerError";
        };
    }

    public static ServiceException badRequest(String message) {
        return new ServiceException(400, 0, message);
    }

    public static ServiceException badRequest(int subStatus, String message) {
        return new ServiceException(400, subStatus, message);
    }

    public static ServiceException notFound(String message) {
        return new ServiceException(404, 0, message);
    }

    /**
     * The service's 404 for an item that is not there (what applications and the SDKs' tests match: the Java SDK's
     * PatchTest.itemPatchFailure looks for "Resource Not Found").
     */
    public static ServiceException itemNotFound() {
        return notFound("Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found");
    }

    public static ServiceException conflict(String message) {
        return new ServiceException(409, 0, message);
    }

    /**
     * A 412; the message starts with the service's words, which clients look for (Spring Data Cosmos's optimistic
     * locking tests: "is not met").
     */
    public static ServiceException preconditionFailed(String message) {
        return new ServiceException(412, 0, "One of the specified pre-condition is not met. " + message);
    }

    /**
     * 413 for an item or request body over the service's limit, with the service's own message (its backend's error
     * envelope around "Request size is too large"), which is what the SDKs show.
     */
    public static ServiceException tooLarge() {
        return new ServiceException(413, 0, "Message: {\"Errors\":[\"Request size is too large\"]}");
    }

    public static ServiceException forbidden(int subStatus, String message) {
        return new ServiceException(403, subStatus, message);
    }
}
