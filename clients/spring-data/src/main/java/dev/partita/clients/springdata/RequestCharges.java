package dev.partita.clients.springdata;

import com.azure.spring.data.cosmos.core.ResponseDiagnostics;
import com.azure.spring.data.cosmos.core.ResponseDiagnosticsProcessor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the framework reports after each Cosmos response: the application keeps the diagnostics of the responses (as
 * one would to log request units per operation), newest last.
 */
public final class RequestCharges implements ResponseDiagnosticsProcessor {
    private final List<ResponseDiagnostics> seen = new CopyOnWriteArrayList<>();

    @Override
    public void processResponseDiagnostics(ResponseDiagnostics diagnostics) {
        if (diagnostics != null) {
            seen.add(diagnostics);
        }
    }

    /** The responses seen so far. */
    public List<ResponseDiagnostics> seen() {
        return List.copyOf(seen);
    }

    public void clear() {
        seen.clear();
    }
}
