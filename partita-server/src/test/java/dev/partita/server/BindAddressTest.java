package dev.partita.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** Where the server binds: {@code localhost} is the loopback address without a name look-up; others as given. */
class BindAddressTest {
    @Test
    void localhostIsTheLoopbackAddress() {
        for (String host : new String[] {"localhost", "LocalHost"}) {
            InetSocketAddress a = PartitaServer.bindAddress(host, 8081);
            assertThat(a.isUnresolved()).isFalse();
            assertThat(a.getAddress()).isEqualTo(InetAddress.getLoopbackAddress());
            assertThat(a.getAddress().isLoopbackAddress()).isTrue();
            assertThat(a.getPort()).isEqualTo(8081);
        }
    }

    @Test
    void otherHostsAreBoundAsGiven() {
        assertThat(PartitaServer.bindAddress("127.0.0.1", 0)).isEqualTo(new InetSocketAddress("127.0.0.1", 0));
        assertThat(PartitaServer.bindAddress("0.0.0.0", 0).getAddress().isAnyLocalAddress()).isTrue();
        assertThat(PartitaServer.bindAddress("::1", 0).getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void aServerOnLocalhostListensOnTheLoopback() throws Exception {
        try (TestServers s = TestServers.http();
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), s.server.port())) {
            assertThat(socket.isConnected()).isTrue();
        }
    }
}
