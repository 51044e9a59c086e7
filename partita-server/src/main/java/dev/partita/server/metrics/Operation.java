package dev.partita.server.metrics;

import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;

/** The operation label of a request, from its method, path and headers alone (before and whatever the routing). */
final class Operation {
    private Operation() {
    }

    static String of(Exchange ex) {
        List<String> s = ex.segments();
        int n = s.size();
        if (n == 0) {
            return "account";
        }
        if (s.get(0).equals("offers")) {
            return "offer";
        }
        if (n <= 2) {
            return "database";
        }
        if (s.get(2).equals("users")) {
            return n <= 4 ? "user" : "permission";
        }
        if (s.get(2).equals("clientencryptionkeys")) {
            return "client_encryption_key";
        }
        if (n <= 4) {
            return "container";
        }
        return switch (s.get(4)) {
            case "docs" -> n == 5 ? feed(ex) : item(ex.method());
            case "pkranges" -> "pkranges";
            default -> "script";
        };
    }

    private static String item(HttpMethod m) {
        return switch (m.name()) {
            case "GET", "HEAD" -> "read";
            case "PUT" -> "replace";
            case "DELETE" -> "delete";
            case "PATCH" -> "patch";
            default -> "other";
        };
    }

    private static String feed(Exchange ex) {
        if (ex.method().equals(HttpMethod.GET)) {
            return ex.header(Hdr.A_IM) != null ? "change_feed" : "read_feed";
        }
        if (ex.flag(Hdr.IS_QUERY_PLAN)) {
            return "query_plan";
        }
        if (ex.isQuery()) {
            return "query";
        }
        if (ex.flag(Hdr.IS_BATCH)) {
            // as the document routes decide it: without the header, a batch names its partition key, bulk does not
            String atomic = ex.header(Hdr.BATCH_ATOMIC);
            boolean batch = atomic == null ? ex.header(Hdr.PARTITION_KEY) != null : ex.flag(Hdr.BATCH_ATOMIC);
            return batch ? "batch" : "bulk";
        }
        return ex.flag(Hdr.IS_UPSERT) ? "upsert" : "create";
    }
}
