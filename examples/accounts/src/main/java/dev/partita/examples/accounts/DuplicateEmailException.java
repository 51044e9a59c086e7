package dev.partita.examples.accounts;

/** Registration refused because the address is already claimed (the message never contains the address). */
public final class DuplicateEmailException extends RuntimeException {
    public DuplicateEmailException() {
        super("That email address is already taken.");
    }
}
