/**
 * The {@code partita} command line: {@code serve} (the server; it reads its own options, so that a start-up does not
 * pay for picocli's command model), and the tools {@code advise}, {@code migrate}, {@code import} and {@code export}
 * (picocli). The hidden {@code train} runs a short session for the launcher's ahead-of-time cache. Depends on the
 * server and the engine.
 */
package dev.partita.cli;
