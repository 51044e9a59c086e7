package dev.partita.core.item;

import static org.assertj.core.api.Assertions.assertThat;

import dev.partita.core.store.Bytes;
import dev.partita.core.store.MemoryStore;
import dev.partita.core.store.StoreKeys;
import dev.partita.core.store.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The container's LSNs under writers of several partitions: the committed watermark (what the change feed reads up
 * to) never passes an LSN still being staged, and a restart never hands out an LSN that was committed.
 */
class LsnSequenceTest {
    static final int CONTAINER = 7;
    final MemoryStore store = new MemoryStore();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void theWatermarkStaysBelowAnLsnStillBeingStaged() {
        LsnSequence lsns = LsnSequence.load(store, CONTAINER);
        LsnSequence.Claim slow = lsns.claim();
        LsnSequence.Claim fast = lsns.claim();
        assertThat(slow.next()).isEqualTo(1);
        assertThat(fast.next()).isEqualTo(2);
        fast.commit(new Txn(store));
        assertThat(lsns.committed()).isZero();
        assertThat(recordedWatermark()).isZero();

        slow.commit(new Txn(store));
        assertThat(lsns.committed()).isEqualTo(2);
        assertThat(recordedWatermark()).isEqualTo(2);
    }

    @Test
    void aRestartNeverHandsOutACommittedLsnAgain() {
        LsnSequence lsns = LsnSequence.load(store, CONTAINER);
        LsnSequence.Claim lost = lsns.claim();
        LsnSequence.Claim committed = lsns.claim();
        lost.next();
        committed.next();
        committed.commit(new Txn(store)); // LSN 2 is committed while 1 is staged; then the process dies

        LsnSequence restarted = LsnSequence.load(store, CONTAINER);
        assertThat(restarted.last()).isEqualTo(2);
        assertThat(restarted.claim().next()).isEqualTo(3);
        // nothing is being staged after a restart: the feed may read up to every LSN committed
        assertThat(restarted.committed()).isEqualTo(2);
        assertThat(recordedWatermark()).isEqualTo(2);
    }

    @Test
    void aRecordFromBeforeTheWatermarkIsTheLastCommittedLsn() {
        store.apply(new WriteBatch().put(StoreKeys.containerLsn(CONTAINER), Bytes.longBytes(41)));
        LsnSequence lsns = LsnSequence.load(store, CONTAINER);
        assertThat(lsns.committed()).isEqualTo(41);
        assertThat(lsns.claim().next()).isEqualTo(42);
    }

    @Test
    void anAbandonedClaimGivesItsLsnsBackUnlessAnotherWriterTookOneSince() {
        LsnSequence lsns = LsnSequence.load(store, CONTAINER);
        LsnSequence.Claim failed = lsns.claim();
        failed.next();
        failed.abandon();
        assertThat(lsns.last()).isZero();

        LsnSequence.Claim gap = lsns.claim();
        LsnSequence.Claim other = lsns.claim();
        assertThat(gap.next()).isEqualTo(1);
        assertThat(other.next()).isEqualTo(2);
        other.commit(new Txn(store));
        assertThat(lsns.committed()).isZero();
        gap.abandon();
        // LSN 1 stays a gap; the watermark moves past it at once, without waiting for another write
        assertThat(lsns.last()).isEqualTo(2);
        assertThat(lsns.committed()).isEqualTo(2);
        assertThat(recordedWatermark()).isEqualTo(2);
    }

    @Test
    void anLsnAnotherWriterCommittedBetweenTwoOfAnAbandonedClaimIsNeverHandedOutAgain() {
        LsnSequence lsns = LsnSequence.load(store, CONTAINER);
        LsnSequence.Claim failed = lsns.claim();
        LsnSequence.Claim other = lsns.claim();
        assertThat(failed.next()).isEqualTo(1);
        assertThat(other.next()).isEqualTo(2);
        other.commit(new Txn(store));
        assertThat(failed.next()).isEqualTo(3);
        failed.abandon();
        assertThat(lsns.claim().next()).isEqualTo(4);
        assertThat(lsns.committed()).isEqualTo(3);
    }

    long recordedWatermark() {
        return Bytes.longValue(store.get(StoreKeys.containerLsn(CONTAINER)));
    }
}
