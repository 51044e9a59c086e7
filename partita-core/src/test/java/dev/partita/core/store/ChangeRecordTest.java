package dev.partita.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.store.ChangeRecord.Operation;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A change record is stored in one format whichever way it is written: the direct encoding of plain-ASCII EPKs and ids
 * gives the bytes {@code DataOutputStream} gives (records written before it was used read back the same), and every
 * record decodes to itself.
 */
class ChangeRecordTest {
    private static final byte[] NEW = "{\"id\":\"x\",\"n\":1}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OLD = "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8);

    private static void roundTrips(ChangeRecord r) {
        byte[] encoded = r.encode();
        assertThat(encoded).isEqualTo(r.encodeWithStream());
        ChangeRecord back = ChangeRecord.decode(encoded);
        assertThat(back.operation()).isEqualTo(r.operation());
        assertThat(back.lsn()).isEqualTo(r.lsn());
        assertThat(back.ts()).isEqualTo(r.ts());
        assertThat(back.epk()).isEqualTo(r.epk());
        assertThat(back.id()).isEqualTo(r.id());
        assertThat(back.previousLsn()).isEqualTo(r.previousLsn());
        assertThat(back.newImage()).isEqualTo(r.newImage());
        assertThat(back.previousImage()).isEqualTo(r.previousImage());
        ChangeRecord.Header h = ChangeRecord.peek(encoded);
        assertThat(h.epk()).isEqualTo(r.epk());
        assertThat(h.id()).isEqualTo(r.id());
        assertThat(h.lsn()).isEqualTo(r.lsn());
    }

    @Test
    void aCreateAReplaceAndADeleteEncodeAsThroughDataOutputStream() {
        roundTrips(new ChangeRecord(Operation.CREATE, 7, 1_700_000_000L, "05C1D5AB", "x", 0, NEW, null));
        roundTrips(new ChangeRecord(Operation.REPLACE, 1L << 40, -1, "", "item-1", 6, NEW, OLD));
        roundTrips(new ChangeRecord(Operation.DELETE, 9, 3, "FF", "~", 8, null, OLD));
        roundTrips(new ChangeRecord(Operation.TTL_EXPIRE, 10, 4, "00", "a".repeat(255), 9, null, new byte[0]));
    }

    @Test
    void idsThatAreNotPlainAsciiKeepTheirModifiedUtf8() {
        roundTrips(new ChangeRecord(Operation.CREATE, 1, 2, "0A", "caf\u00e9", 0, NEW, null));
        roundTrips(new ChangeRecord(Operation.CREATE, 1, 2, "0A", "nul\u0000inside", 0, NEW, null));
        roundTrips(new ChangeRecord(Operation.CREATE, 1, 2, "0A", "\uD83D\uDE00 \u6f22", 0, NEW, null));
    }

    @Test
    void anImageFilledInLaterGivesTheBytesOfARecordWrittenWithIt() {
        byte[] item = ("HEADER" + new String(NEW, StandardCharsets.UTF_8) + "TAIL").getBytes(StandardCharsets.UTF_8);
        for (ChangeRecord r : new ChangeRecord[] {
                new ChangeRecord(Operation.CREATE, 7, 1_700_000_000L, "05C1D5AB", "x", 0, null, null),
                new ChangeRecord(Operation.REPLACE, 1L << 40, -1, "", "caf\u00e9", 6, null, null),
                new ChangeRecord(Operation.REPLACE, 8, 2, "0A", "legacy", 5, null, OLD)}) {
            byte[] slim = r.encode();
            assertThat(ChangeRecord.holdsImage(slim)).isFalse();
            assertThat(ChangeRecord.previousLsn(slim)).isEqualTo(r.previousLsn());
            byte[] filled = ChangeRecord.withImage(slim, item, 6, NEW.length);
            assertThat(filled).isEqualTo(r.withNewImage(NEW).encode());
            assertThat(ChangeRecord.holdsImage(filled)).isTrue();
            assertThat(ChangeRecord.decode(filled).newImage()).isEqualTo(NEW);
            assertThat(ChangeRecord.decode(filled).previousImage()).isEqualTo(r.previousImage());
        }
    }
}
