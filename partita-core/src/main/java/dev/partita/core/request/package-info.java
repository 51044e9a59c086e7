/**
 * What a request says and what it gets back, as typed values: {@link dev.partita.core.request.RequestOptions} (partition
 * key, {@link dev.partita.core.request.Conditions}, {@link dev.partita.core.request.Priority}, consistency, session
 * token, {@link dev.partita.core.request.Scope}, continuation, page size, the caller's
 * {@link dev.partita.core.request.AccessScope}), the {@link dev.partita.core.request.SessionToken} format and the
 * {@link dev.partita.core.request.ApiVersion} a request names. The gateway
 * decodes headers into these; in-process callers build them directly; the engine's container handle reads them.
 *
 * <p>A leaf of core: depends only on {@code error}, {@code limits} and {@code partition}, so every package that runs
 * part of a request (item, query, changefeed, capacity) may use it.
 */
package dev.partita.core.request;
