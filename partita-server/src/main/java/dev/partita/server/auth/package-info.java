/**
 * Authorization of requests: the master-key HMAC signature (protocol.md §2.1) checked against the two read-write and
 * the two read-only keys, the {@code x-ms-date} clock-skew check, and resource tokens (§2.2) minted from permissions
 * and verified by their own HMAC. Scope checks of resource tokens need resolved resources and live in
 * {@code route.Access}. Depends on core for users/permissions and the error type.
 */
package dev.partita.server.auth;
