package dev.partita.examples.accounts;

/** The account changed since it was read (the store answered 412 to the If-Match replace). */
public final class ConcurrencyFailureException extends RuntimeException {
    public ConcurrencyFailureException() {
        super("Optimistic concurrency failure: the account was changed by someone else; read it again and retry.");
    }
}
