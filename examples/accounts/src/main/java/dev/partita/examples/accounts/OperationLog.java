package dev.partita.examples.accounts;

import java.util.ArrayList;
import java.util.List;

/**
 * What the store asked the database, without values: operation, status, request charge and the SDK's diagnostics
 * string. Tests read it to prove that accounts never query; the report sums its charges.
 */
public final class OperationLog {
    /** One call to the database. */
    public record Entry(String operation, int status, double requestCharge, String diagnostics) {
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void add(Entry e) {
        entries.add(e);
    }

    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    public synchronized void clear() {
        entries.clear();
    }

    /** Total request charge of the calls logged since the given position. */
    public synchronized double chargeSince(int position) {
        double total = 0;
        for (int i = position; i < entries.size(); i++) {
            total += entries.get(i).requestCharge();
        }
        return total;
    }

    public synchronized int size() {
        return entries.size();
    }
}
