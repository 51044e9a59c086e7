/**
 * The change log ({@link dev.partita.core.changefeed.ChangeRecord}, written atomically with every item write) and,
 * with the change-feed issue, the latest-version and all-versions-and-deletes readers over it. Depends on the store.
 */
package dev.partita.core.changefeed;
