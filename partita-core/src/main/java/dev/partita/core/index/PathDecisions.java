package dev.partita.core.index;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a policy decides for each document path its items have, remembered per path in a tree of steps: whether a
 * scalar there is indexed ({@link IndexingPolicy#indexes}), whether anything below it may be
 * ({@link IndexingPolicy#mayIndexBelow}) and the path's encoded bytes, the prefix of its terms. The items of a
 * container share their paths, so the walk of an item's terms ({@link IndexTerms#of}) looks each step up here rather
 * than matching the path against every included and excluded path and encoding it again (that was ~10% of a bulk
 * write's CPU). Thread-safe: the writers of different partitions walk one policy's tree at once.
 *
 * <p>Bounded: once {@value #MAX_PATHS} paths are remembered (items with generated property names or long arrays),
 * paths not seen yet are decided and encoded on each walk, as without this tree.
 */
final class PathDecisions {
    static final int MAX_PATHS = 16_384;

    private final IndexingPolicy policy;
    private final AtomicInteger paths = new AtomicInteger();
    private final Step root = new Step(false, true, null);

    PathDecisions(IndexingPolicy policy) {
        this.policy = policy;
    }

    IndexingPolicy policy() {
        return policy;
    }

    /** The whole document's step (the empty path). */
    Step root() {
        return root;
    }

    /**
     * The decisions at {@code path}, the path of {@code parent} followed by {@code name} (a property name or an array
     * position); null when the tree is full and does not have it.
     */
    Step child(Step parent, Object name, List<Object> path) {
        Step s = parent.children.get(name);
        if (s != null || paths.get() >= MAX_PATHS) {
            return s;
        }
        Step fresh = new Step(policy.indexes(path), policy.mayIndexBelow(path), IndexTerms.path(path));
        Step raced = parent.children.putIfAbsent(name, fresh);
        if (raced != null) {
            return raced;
        }
        paths.incrementAndGet();
        return fresh;
    }

    /** One path's decisions; {@code encoded} is its terms' prefix. */
    static final class Step {
        final boolean indexes;
        final boolean mayIndexBelow;
        final byte[] encoded;
        private final ConcurrentHashMap<Object, Step> children = new ConcurrentHashMap<>(4);

        private Step(boolean indexes, boolean mayIndexBelow, byte[] encoded) {
            this.indexes = indexes;
            this.mayIndexBelow = mayIndexBelow;
            this.encoded = encoded;
        }
    }
}
