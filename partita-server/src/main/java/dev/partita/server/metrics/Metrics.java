package dev.partita.server.metrics;

import dev.partita.core.Engine;
import dev.partita.server.http.Dispatcher;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Reply;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The account's Prometheus metrics: {@code GET /metrics} answers the text exposition format (no account key: it
 * holds no data), every other request goes through the {@link MeteredDispatcher} to the router.
 */
public final class Metrics implements Dispatcher {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PartitionSeries partitions;
    private final MeteredDispatcher metered;

    public Metrics(Engine engine, Dispatcher router) {
        this.partitions = new PartitionSeries(engine, registry);
        this.metered = new MeteredDispatcher(router, engine, registry);
    }

    @Override
    public Reply handle(Exchange ex) {
        if (isScrape(ex)) {
            return Reply.status(200).body(scrape().getBytes(StandardCharsets.UTF_8)).header("content-type",
                    CONTENT_TYPE);
        }
        return metered.handle(ex);
    }

    /** A scrape (which refreshes partition gauges) keeps its virtual thread; the rest is the router's call. */
    @Override
    public Reply handleWithoutWaiting(Exchange ex) {
        return isScrape(ex) ? null : metered.handleWithoutWaiting(ex);
    }

    private static boolean isScrape(Exchange ex) {
        List<String> s = ex.segments();
        return s.size() == 1 && s.get(0).equals("metrics") && ex.method().equals(HttpMethod.GET);
    }

    /** The current values in the Prometheus text format. */
    public String scrape() {
        partitions.refresh();
        return registry.scrape();
    }
}
