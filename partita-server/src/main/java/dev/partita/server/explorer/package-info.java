/**
 * The data explorer at {@code /_explorer/}: a page of plain HTML, CSS and ES modules served from the jar
 * ({@link dev.partita.server.explorer.Assets}) that talks to Partita through the ordinary REST API, signed in the
 * browser with the account key, plus one read-only statistics endpoint for its partition heat map
 * ({@link dev.partita.server.explorer.PartitionsApi}), which needs the same account-key signature because it names
 * partition key values. The assets hold no data and are served to anyone; nothing here logs a document.
 */
package dev.partita.server.explorer;
