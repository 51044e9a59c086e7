package dev.partita.core.store;

/**
 * A failure of the storage engine itself (I/O error, corruption, native error), as opposed to a request the engine
 * refuses. Unchecked because no caller can do better than fail the request and let the gateway answer 500.
 */
public final class StoreException extends RuntimeException {

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
