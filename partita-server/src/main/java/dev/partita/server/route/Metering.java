package dev.partita.server.route;

import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ContainerInfo;
import dev.partita.core.capacity.Capacity;
import dev.partita.core.request.Priority;
import dev.partita.core.capacity.Work;
import dev.partita.server.http.Exchange;
import dev.partita.server.http.Hdr;
import dev.partita.server.http.Reply;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The protocol side of capacity: reads the priority ({@code x-ms-cosmos-priority-level}) and consistency
 * ({@code x-ms-consistency-level}) headers, asks the engine's {@link Capacity} to admit the request on its physical
 * partition, runs it, and charges the price of the work it did — also to the reply's {@code x-ms-request-charge}.
 * The rules (prices, budgets, 429s) are the engine's; this class only carries headers to and from them.
 */
final class Metering {
    private final Capacity capacity;

    Metering(Capacity capacity) {
        this.capacity = capacity;
    }

    /** Admits the request on {@code rangeId} (429 when its budget is spent), then runs it; failures are charged too. */
    <T> T run(Exchange ex, ContainerInfo c, String rangeId, Supplier<T> operation) {
        capacity.admit(c, rangeId, Priority.fromHeader(ex.header(Hdr.PRIORITY_LEVEL)));
        try {
            return operation.get();
        } catch (ServiceException e) {
            capacity.charge(c, rangeId, capacity.costs().failed(e.status()));
            throw e;
        }
    }

    /** The price of {@code work}, charged to partition {@code rangeId} of {@code c}. */
    double charge(Exchange ex, ContainerInfo c, String rangeId, Work work) {
        return capacity.charge(c, rangeId, price(ex, work));
    }

    /** The price of {@code work} for this request (reads at Strong or Bounded Staleness cost double). */
    double price(Exchange ex, Work work) {
        return capacity.costs().price(work, strongRead(ex));
    }

    /** As {@link #charged(Reply, Exchange, ContainerInfo, String, Work)} for a query page over several partitions. */
    Reply charged(Reply reply, Exchange ex, ContainerInfo c, String rangeId, Work work, int partitionsTouched) {
        double ru = capacity.costs().price(work, strongRead(ex), partitionsTouched);
        return reply.charge(capacity.charge(c, rangeId, ru));
    }

    /** Sets the charge of {@code work} on the reply and charges it to the partition. */
    Reply charged(Reply reply, Exchange ex, ContainerInfo c, String rangeId, Work work) {
        return reply.charge(charge(ex, c, rangeId, work));
    }

    private static boolean strongRead(Exchange ex) {
        String level = ex.header(Hdr.CONSISTENCY_LEVEL);
        if (level == null) {
            return false;
        }
        String l = level.trim().toLowerCase(Locale.ROOT);
        return l.equals("strong") || l.equals("boundedstaleness");
    }
}
