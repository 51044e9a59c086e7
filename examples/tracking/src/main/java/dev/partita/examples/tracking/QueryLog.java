package dev.partita.examples.tracking;

import java.util.ArrayList;
import java.util.List;

/** Every query text the store has built, so a test can prove each one carries its endpoint scope first. */
public final class QueryLog {
    private final List<String> queries = new ArrayList<>();

    synchronized void add(String query) {
        queries.add(query);
    }

    public synchronized List<String> queries() {
        return List.copyOf(queries);
    }
}
