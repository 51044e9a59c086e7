/**
 * Server-side JavaScript: the container's stored procedures, triggers and user-defined functions as resources
 * ({@link dev.partita.core.script.ScriptCatalog}), and their execution in a sandboxed GraalJS runtime
 * ({@link dev.partita.core.script.ScriptRuntime}: one shared engine, pooled contexts, no host access, a time and
 * memory bound per execution), loaded on first use. A stored procedure's and a trigger's collection operations run on
 * one {@link dev.partita.core.item.PartitionTxn}, so they commit together or not at all.
 */
package dev.partita.core.script;
