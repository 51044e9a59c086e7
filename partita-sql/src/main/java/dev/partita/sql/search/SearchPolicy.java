package dev.partita.sql.search;

/**
 * What a container declares about its vectors and texts, as the search functions need it. Paths are written as the
 * policies write them ({@code /a/b}).
 */
public interface SearchPolicy {
    /** The default full-text language of the service when a container declares none. */
    String DEFAULT_LANGUAGE = "en-US";

    /** A container without vector or full-text policies. */
    SearchPolicy NONE = new SearchPolicy() {
        @Override
        public VectorEmbedding embedding(String path) {
            return null;
        }

        @Override
        public String language(String path) {
            return DEFAULT_LANGUAGE;
        }
    };

    /** The embedding declared for the path, or null. */
    VectorEmbedding embedding(String path);

    /** The full-text language of the path (its own, else the policy's default, else en-US). */
    String language(String path);
}
