package dev.partita.sql.search;

/**
 * BM25 as {@code FullTextScore} ranks with it: {@code idf(t) = ln(1 + (N - n + 0.5) / (n + 0.5))} and
 * {@code idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))} per term, summed over the terms, with the
 * corpus statistics of all partitions (N documents, n of them containing the term, avgdl the mean term count). The
 * service publishes neither k1 nor b; these are Lucene's defaults.
 */
record Bm25(double documents, double totalWords) {
    static final double K1 = 1.2;
    static final double B = 0.75;

    double termScore(int tf, int length, double documentsWithTerm) {
        if (tf == 0 || documents <= 0) {
            return 0;
        }
        double idf = Math.log(1 + (documents - documentsWithTerm + 0.5) / (documentsWithTerm + 0.5));
        double avg = totalWords / documents;
        double norm = avg <= 0 ? 1 : 1 - B + B * length / avg;
        return idf * tf * (K1 + 1) / (tf + K1 * norm);
    }
}
