package dev.partita.core.partition;

import dev.partita.core.error.ServiceException;
import dev.partita.core.error.SubStatus;
import dev.partita.core.partition.PartitionKeyValue.Component;

/**
 * The effective partition key (EPK): the upper-case hex string that orders items across physical partitions
 * (protocol.md §5.4), computed exactly like the Java SDK's {@code PartitionKeyInternalHelper}:
 * <ul>
 *   <li><b>Hash V1</b>: MurmurHash3 x86_32 of the components (strings cut to 100 chars), then the binary encoding of
 *       {@code [hash, components...]};</li>
 *   <li><b>Hash V2</b>: MurmurHash3 x64_128 of all components, 16 bytes, top two bits cleared, 32 hex chars;</li>
 *   <li><b>MultiHash</b>: the V2 hash of each component separately, concatenated (32 hex chars per component; a
 *       prefix key gives a shorter EPK);</li>
 *   <li><b>Range</b> (legacy): the binary encoding of the components, unhashed;</li>
 *   <li>{@link PartitionKeyValue#EMPTY} is {@link #MIN} ({@code ""}) for every definition.</li>
 * </ul>
 * Every EPK sorts below {@link #MAX}. On the V2 path the only allocations are the output string and its buffer.
 */
public final class EffectivePartitionKey {

    private EffectivePartitionKey() {
    }

    /** The smallest EPK: the encoding of the empty key. */
    public static final String MIN = "";
    /** The exclusive upper bound of all EPKs: the encoding of the Infinity component (0xFF). */
    public static final String MAX = "FF";

    /** Clears the two top bits of the first EPK byte so that every V2 hash sorts below "FF". */
    private static final long V2_TOP_MASK = 0x3FFFFFFFFFFFFFFFL;

    /**
     * The EPK of {@code value} under {@code def}.
     *
     * @throws ServiceException 400/1001 if the value has more components than the definition has paths, or fewer
     *                          for a non-hierarchical key (the SDK throws in both cases)
     */
    public static String of(PartitionKeyDefinition def, PartitionKeyValue value) {
        Component[] cs = value.raw();
        if (cs.length == 0) {
            return MIN;
        }
        int levels = def.levels();
        if (cs.length > levels) {
            throw ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH,
                    "The partition key has more values than the container's partition key has paths.");
        }
        if (cs.length < levels && def.kind() != PartitionKind.MULTI_HASH) {
            throw ServiceException.badRequest(SubStatus.PARTITION_KEY_MISMATCH,
                    "The partition key has fewer values than the container's partition key has paths.");
        }
        return switch (def.kind()) {
            case HASH -> def.version() == 2 ? hashV2(cs) : hashV1(cs);
            case MULTI_HASH -> multiHash(cs);
            case RANGE -> binary(cs);
        };
    }

    static String hashV2(Component[] cs) {
        Murmur3x64_128 m = new Murmur3x64_128();
        for (Component c : cs) {
            KeyEncoding.writeForHashingV2(c, m);
        }
        m.finish();
        byte[] out = new byte[32];
        writeV2Block(m, out, 0);
        return KeyEncoding.ascii(out);
    }

    static String multiHash(Component[] cs) {
        Murmur3x64_128 m = new Murmur3x64_128();
        byte[] out = new byte[32 * cs.length];
        for (int i = 0; i < cs.length; i++) {
            if (i > 0) {
                m.reset();
            }
            KeyEncoding.writeForHashingV2(cs[i], m);
            m.finish();
            writeV2Block(m, out, 32 * i);
        }
        return KeyEncoding.ascii(out);
    }

    /** 16 bytes: h2 big-endian then h1 big-endian, i.e. the canonical little-endian digest reversed; top bits cleared. */
    private static void writeV2Block(Murmur3x64_128 m, byte[] out, int off) {
        KeyEncoding.hexLong(m.h2() & V2_TOP_MASK, out, off);
        KeyEncoding.hexLong(m.h1(), out, off + 16);
    }

    static String hashV1(Component[] cs) {
        Murmur3x86_32 m = new Murmur3x86_32(0);
        for (Component c : cs) {
            KeyEncoding.writeForHashingV1(c, m);
        }
        double hash = Integer.toUnsignedLong(m.finish());
        KeyEncoding.ByteArraySink out = new KeyEncoding.ByteArraySink(
                KeyEncoding.MAX_BINARY_COMPONENT_BYTES * (cs.length + 1));
        KeyEncoding.writeBinaryNumber(hash, out);
        for (Component c : cs) {
            KeyEncoding.writeBinary(c, true, out);
        }
        return out.toHex();
    }

    static String binary(Component[] cs) {
        KeyEncoding.ByteArraySink out = new KeyEncoding.ByteArraySink(KeyEncoding.MAX_BINARY_COMPONENT_BYTES * cs.length);
        for (Component c : cs) {
            KeyEncoding.writeBinary(c, false, out);
        }
        return out.toHex();
    }
}
