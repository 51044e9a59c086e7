/**
 * The one error type of the engine, {@link dev.partita.core.error.ServiceException} (HTTP status, sub-status, the
 * service's code, a message that never carries document or partition key values, and — once the engine priced the
 * failure — its request charge), and the service's sub-status numbers ({@link dev.partita.core.error.SubStatus}). A
 * leaf: it depends on nothing; every package may throw it.
 */
package dev.partita.core.error;
