package dev.partita.server.route;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.fault.FaultRule;
import dev.partita.core.json.Json;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.netty.handler.codec.http.HttpMethod;

/**
 * {@code /_partita/faults}, Partita's fault injection for testing clients' retry logic (account key only, signed like
 * an account read): {@code POST} a rule ({@link FaultRule#fromJson}: e.g. {@code {"kind":"throttle",
 * "container":"db/orders","count":3,"retryAfterMs":100}}), {@code GET} the rules in force, {@code DELETE} them all.
 */
final class FaultRoutes {
    private final RouteContext ctx;

    FaultRoutes(RouteContext ctx) {
        this.ctx = ctx;
    }

    Reply handle(Exchange ex) {
        HttpMethod m = ex.method();
        if (m.equals(HttpMethod.POST)) {
            FaultRule rule = FaultRule.fromJson(Json.parseObject(ex.body(), "fault rule"));
            ObjectNode out = rule.toJson().put("id", ctx.engine.faults().add(rule));
            return Reply.json(201, out);
        }
        if (m.equals(HttpMethod.GET)) {
            ObjectNode out = Json.object();
            ArrayNode list = out.putArray("Faults");
            ctx.engine.faults().list().forEach(r -> list.add(r.toJson()));
            return Reply.json(200, out);
        }
        if (m.equals(HttpMethod.DELETE)) {
            ctx.engine.faults().clear();
            return Reply.status(204);
        }
        throw Replies.methodNotAllowed(ex);
    }
}
