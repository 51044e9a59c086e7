package dev.partita.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.spi.SelectorProvider;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.slf4j.spi.SLF4JServiceProvider;

/** What {@code serve} names so that the JDK and SLF4J need not search the class path at start-up. */
class ServeStartupTest {
    @Test
    void theNamedSelectorProviderIsTheOneNioWouldUse() {
        // this JVM names none, so NIO fell back to the platform's built-in provider
        assertThat(System.getProperty(ServeCommand.SELECTOR_PROVIDER)).isNull();
        assertThat(ServeCommand.platformSelectorProvider())
                .isEqualTo(SelectorProvider.provider().getClass().getName());
    }

    @Test
    void theNamedLoggerIsTheOneSlf4jWouldFind() {
        // SLF4J's own search, which naming the provider skips, finds this one and no other
        assertThat(ServiceLoader.load(SLF4JServiceProvider.class).stream().map(p -> p.type().getName()))
                .containsExactly(ServeCommand.SLF4J_SIMPLE);
    }

    @Test
    void theResourcesTheStartLooksUpAreInTheCommandLinesOwnJar() {
        // found in the first jar of the class path, the look-ups stop there instead of opening every jar after it
        for (String name : new String[] {"simplelogger.properties", "prometheus.properties"}) {
            assertThat(ServeStartupTest.class.getClassLoader().getResource(name)).as(name).isNotNull()
                    .satisfies(url -> assertThat(url.toString()).contains("partita-cli"));
        }
    }
}
