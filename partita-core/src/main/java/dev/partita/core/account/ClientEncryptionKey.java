package dev.partita.core.account;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A client encryption key of a database ({@link ClientEncryptionKeys}): a data encryption key wrapped by a key the
 * client keeps (in Key Vault); the service stores it and never unwraps it.
 *
 * @param properties the client's properties ({@code id}, {@code encryptionAlgorithm}, {@code wrappedDataEncryptionKey},
 *                   {@code keyWrapMetadata}), without system properties
 */
public record ClientEncryptionKey(String databaseRid, String id, String rid, ObjectNode properties, long ts,
        String etag) {

    public String selfLink() {
        return "dbs/" + databaseRid + "/clientencryptionkeys/" + rid + "/";
    }

    public ObjectNode toJson() {
        ObjectNode o = properties.deepCopy();
        o.put("_rid", rid);
        o.put("_self", selfLink());
        o.put("_etag", etag);
        o.put("_ts", ts);
        return o;
    }
}
