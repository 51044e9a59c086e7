/**
 * The data tools of the command line (import, export; later advise and migrate). They use only the official SDK, so
 * they work the same against Partita and against a real account. Depends on the SDK, picocli and Jackson; the
 * server module only for the emulator's well-known key.
 */
package dev.partita.cli.tools;
