package dev.partita.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import dev.partita.core.error.ServiceException;

/**
 * The service's error shape: a JSON object {@code {"code","message"}} (and {@code additionalErrorInfo} when the engine
 * gives one) and the sub-status in {@code x-ms-substatus}. The service ends every error's message with a line naming
 * the request's activity id and its backend's version ({@code \r\nActivityId: <id>, Microsoft.Azure.Documents.Common/2.14.0});
 * clients' own tests look for that line break after the message proper, so Partita's messages end the same way.
 */
public final class ErrorReplies {
    private ErrorReplies() {
    }

    private static final String BACKEND = "Microsoft.Azure.Documents.Common/2.14.0";

    public static Reply of(ServiceException e, String activityId) {
        return of(e.status(), e.subStatus(), e.getMessage(), e.retryAfterMillis(), e.additionalErrorInfo(),
                activityId);
    }

    public static Reply of(int status, int subStatus, String message, long retryAfterMillis, String activityId) {
        return of(status, subStatus, message, retryAfterMillis, null, activityId);
    }

    /** With {@code additionalErrorInfo}: the query plan of a query the SDK must run through its pipeline. */
    private static Reply of(int status, int subStatus, String message, long retryAfterMillis, String additional,
            String activityId) {
        ObjectNode body = Json.object();
        body.put("code", ServiceException.codeFor(status));
        body.put("message", (message == null ? "" : message) + "\r\nActivityId: " + activityId + ", " + BACKEND);
        if (additional != null) {
            body.put("additionalErrorInfo", additional);
        }
        Reply r = Reply.json(status, body);
        r.header(Hdr.SUBSTATUS, Integer.toString(subStatus));
        if (retryAfterMillis > 0) {
            r.header(Hdr.RETRY_AFTER_MS, Long.toString(retryAfterMillis));
        }
        return r;
    }

    /** A 500 that names only the activity id; the stack trace goes to the log under the same id. */
    public static Reply internal(String activityId) {
        return of(500, 0, "An unexpected error occurred in Partita. The server log has the details under activity id "
                + activityId + ".", 0, activityId);
    }
}
