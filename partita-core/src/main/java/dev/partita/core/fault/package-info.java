/**
 * Fault injection for users' own retry logic: rules ({@link dev.partita.core.fault.FaultRule}) that make requests to a
 * container, or one of its physical partitions, answer 429 (with a retry-after), 410/1002 (a gone partition the client
 * must refresh), 503 or 408, or answer late, by rate or for a number of requests. {@link dev.partita.core.fault.Faults}
 * holds the account's rules; the engine's container handle consults it before admission, so an injected fault costs
 * nothing and changes nothing. Depends on {@code error} and {@code json}; nothing depends on it but the root.
 */
package dev.partita.core.fault;
