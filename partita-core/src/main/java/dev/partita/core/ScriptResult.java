package dev.partita.core;

/**
 * What a stored procedure execution answers: its response body as JSON text (null when it set none), its
 * {@code console.log} output (when logging was asked for), the request charge, and where it ran.
 */
public record ScriptResult(String body, String log, double requestCharge, String rangeId, long lsn) {
}
