package dev.partita.core.index.vector;

import dev.partita.sql.search.DistanceFunction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * One embedded path's approximate nearest-neighbour index: Lucene's HNSW graph over the vectors of every item of the
 * container, in memory, each document keyed by its item's store key (hex, so that a range of keys, a partition's
 * scope, is a term range the search can filter by). Cosine vectors are normalised and searched by dot product;
 * dot product by maximum inner product; Euclidean as is. It only proposes candidates: the query rescores them
 * exactly from the store. Thread-safe (Lucene's writer and NRT readers are).
 */
final class AnnIndex implements AutoCloseable {
    static final String KEY = "k";
    static final String VECTOR = "v";

    private final DistanceFunction distance;
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    private final IndexWriter writer;
    private DirectoryReader reader;
    private boolean dirty;
    private long size;

    AnnIndex(DistanceFunction distance) {
        this.distance = distance;
        try {
            IndexWriterConfig config = new IndexWriterConfig();
            config.setRAMBufferSizeMB(256);
            this.writer = new IndexWriter(directory, config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adds or replaces the vector of an item; a null (or, for cosine, zero) vector removes it. */
    synchronized void put(byte[] itemKey, float[] vector) {
        try {
            Term key = new Term(KEY, HexFormat.of().formatHex(itemKey));
            float[] v = vector == null ? null : prepared(vector);
            if (v == null) {
                writer.deleteDocuments(key);
            } else {
                Document d = new Document();
                d.add(new StringField(KEY, key.text(), Field.Store.YES));
                d.add(new KnnFloatVectorField(VECTOR, v, similarity()));
                writer.updateDocument(key, d);
            }
            dirty = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The keys of about the {@code k} items nearest the query among those whose key lies in {@code [from, to)} (null
     * for unbounded), nearest first.
     */
    synchronized List<byte[]> nearest(float[] query, int k, byte[] from, byte[] to) {
        float[] q = prepared(query);
        if (q == null || k <= 0) {
            return List.of();
        }
        try {
            refresh();
            if (reader == null) {
                return List.of();
            }
            IndexSearcher searcher = new IndexSearcher(reader);
            Query scope = from == null && to == null ? null : new TermRangeQuery(KEY, bytes(from), bytes(to), true,
                    false);
            TopDocs top = searcher.search(new KnnFloatVectorQuery(VECTOR, q, k, scope), k);
            List<byte[]> keys = new ArrayList<>(top.scoreDocs.length);
            var stored = searcher.storedFields();
            for (ScoreDoc sd : top.scoreDocs) {
                keys.add(HexFormat.of().parseHex(stored.document(sd.doc).get(KEY)));
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The number of vectors indexed (as of the last search). */
    synchronized long size() {
        try {
            refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return size;
    }

    /** The bytes the index holds in memory (graph, vectors and keys). */
    synchronized long ramBytes() {
        try {
            long files = 0;
            for (String f : directory.listAll()) {
                files += directory.fileLength(f);
            }
            return files + writer.ramBytesUsed();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void refresh() throws IOException {
        if (!dirty && reader != null) {
            return;
        }
        if (reader == null) {
            writer.commit();
            reader = DirectoryReader.open(writer);
        } else {
            DirectoryReader changed = DirectoryReader.openIfChanged(reader, writer);
            if (changed != null) {
                reader.close();
                reader = changed;
            }
        }
        size = reader.numDocs();
        dirty = false;
    }

    /** Forces the graph's segments into one (faster searches after a bulk build). */
    synchronized void optimize() {
        try {
            writer.forceMerge(1);
            dirty = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static BytesRef bytes(byte[] key) {
        return key == null ? null : new BytesRef(HexFormat.of().formatHex(key));
    }

    private VectorSimilarityFunction similarity() {
        return switch (distance) {
            case COSINE -> VectorSimilarityFunction.DOT_PRODUCT;
            case DOTPRODUCT -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
            case EUCLIDEAN -> VectorSimilarityFunction.EUCLIDEAN;
        };
    }

    /** The vector as the graph holds it, or null when it cannot take part (non-finite, or zero for cosine). */
    private float[] prepared(float[] v) {
        double norm = 0;
        for (float x : v) {
            if (!Float.isFinite(x)) {
                return null;
            }
            norm += (double) x * x;
        }
        if (distance != DistanceFunction.COSINE) {
            return v;
        }
        if (norm == 0) {
            return null;
        }
        float[] out = new float[v.length];
        double n = Math.sqrt(norm);
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / n);
        }
        return out;
    }

    @Override
    public synchronized void close() {
        try {
            if (reader != null) {
                reader.close();
            }
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
