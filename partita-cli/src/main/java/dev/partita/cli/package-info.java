/** The {@code partita} command line (picocli): {@code serve} now; {@code advise}, {@code migrate}, {@code import},
 * {@code export} and {@code bench} come with the tools issue. Depends on the server and the engine. */
package dev.partita.cli;
