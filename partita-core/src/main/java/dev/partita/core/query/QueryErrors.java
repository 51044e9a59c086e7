package dev.partita.core.query;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.error.ServiceException;
import dev.partita.core.json.Json;
import dev.partita.sql.SqlException;

/** The service's answers to a query it cannot compile or cannot finish in time. */
final class QueryErrors {
    private QueryErrors() {
    }

    /** A query page that ran past the request's deadline where it cannot return part of its result (408). */
    static ServiceException timedOut() {
        return new ServiceException(408, 0, "The query ran past the time one request may take ("
                + "maximum execution time of a single operation) before it could return a page; narrow its filter"
                + " or its scope.");
    }

    /**
     * A query the compiler refused, as the service reports it: a message embedding the error list
     * {@code {"errors":[{"severity":"Error","location":{"start":s,"end":e},"code":"SC1001","message":"…"}]}}, the
     * location being 0-based character offsets into the query text (end exclusive). Errors without a service code
     * are Partita's own and keep their plain text.
     */
    static ServiceException badQuery(SqlException e) {
        if (e.code() == null) {
            return ServiceException.badRequest(e.getMessage());
        }
        ObjectNode error = Json.object();
        error.put("severity", "Error");
        if (e.start() >= 0) {
            ObjectNode location = error.putObject("location");
            location.put("start", e.start());
            location.put("end", Math.max(e.start(), e.end()));
        }
        error.put("code", e.code());
        error.put("message", e.getMessage());
        ObjectNode errors = Json.object();
        errors.putArray("errors").add(error);
        return ServiceException.badRequest("Message: " + errors);
    }
}
