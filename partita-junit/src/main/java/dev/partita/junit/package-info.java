/**
 * The JUnit 5 extension: {@link dev.partita.junit.PartitaTest} gives a test class an in-process Partita and a ready
 * official SDK client. Depends on the server and the engine; tests of user code depend on this alone.
 */
package dev.partita.junit;
