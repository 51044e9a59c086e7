/**
 * The change log ({@link dev.partita.core.store.ChangeRecord}, written atomically with every item write, keyed by
 * the container's LSN) and the change feed over it: {@link dev.partita.core.changefeed.ChangeFeedReader} reads one
 * page of either mode ({@link dev.partita.core.changefeed.ChangeFeedMode}) for a scope (physical partition, EPK
 * sub-range, logical partition or hierarchical-key prefix) from a start point; {@link
 * dev.partita.core.changefeed.ChangeFeedJson} renders a page in the service's wire shapes;
 * {@link dev.partita.core.changefeed.ChangeLogRetention} is the all-versions retention window and the pruning mark,
 * {@link dev.partita.core.changefeed.ChangeLogPruner} the background task that keeps the log to it. Depends on the
 * store, partition, request (scopes), item (stored item layout) and capacity packages; nothing here knows HTTP.
 */
package dev.partita.core.changefeed;
