/**
 * The account's resources and their metadata: the {@link dev.partita.core.account.Catalog} of databases and containers
 * (ids, {@code _rid}s, etags, properties, partition maps, throughput), {@link dev.partita.core.account.Offers} (one per
 * provisioned resource) and {@link dev.partita.core.account.Users} with their permissions, which also resolve a
 * resource token into the {@link dev.partita.core.request.AccessScope} it reaches, and the databases'
 * {@link dev.partita.core.account.ClientEncryptionKeys} (client-side encryption's wrapped keys). Records live in the store's
 * metadata space. Depends on {@code store}, {@code partition}, {@code index} (a container's indexing policy),
 * {@code request} and the leaves; never on item, query, changefeed or capacity, which build on it.
 */
package dev.partita.core.account;
