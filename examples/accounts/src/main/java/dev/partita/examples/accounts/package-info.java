/**
 * Reference system 2 (seed 001): user accounts on one container keyed {@code /id}, with an email claim document per
 * address so that registration, sign-in and "who am I" are point operations only (no queries); optimistic concurrency
 * with etags, lockout, orphaned-claim clean-up, and the report of what a sign-in costs. Uses only the official Java SDK;
 * its tests run it against Partita and check that no address reaches a log line or error.
 */
package dev.partita.examples.accounts;
