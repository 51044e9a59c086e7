package dev.partita.server;

import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.store.RocksStore;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The child process of {@link ServerCrashTest}: Partita's server over a RocksStore in the folder it is given, on a
 * free loopback port, which it prints as {@code LISTENING <port>}. It never stops by itself; the parent kills it with
 * SIGKILL while SDK clients write.
 */
public final class CrashServerMain {
    private CrashServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Engine engine = Engine.open(RocksStore.open(Path.of(args[0])), Clock.systemUTC(), Limits.DEFAULTS);
        PartitaServer server = PartitaServer.start(engine,
                new ServerOptions("127.0.0.1", 0, false, null, Keys.emulator(), false));
        System.out.println("LISTENING " + server.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
