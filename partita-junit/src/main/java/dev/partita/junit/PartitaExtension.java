package dev.partita.junit;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.partita.core.Engine;
import dev.partita.core.limits.Limits;
import dev.partita.core.request.Consistency;
import dev.partita.core.store.MemoryStore;
import dev.partita.server.Keys;
import dev.partita.server.PartitaServer;
import dev.partita.server.ServerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/** The extension behind {@link PartitaTest}; see there. */
public final class PartitaExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PartitaExtension.class);

    static {
        // The SDK reads these once per JVM, before its first client: set them before any client exists.
        System.setProperty("COSMOS.DISABLE_IMDS_ACCESS", "true");
        System.setProperty("COSMOS.HTTP_CONNECTION_WITHOUT_TLS_ALLOWED", "true");
        System.setProperty("COSMOS.EMULATOR_SERVER_CERTIFICATE_VALIDATION_DISABLED", "true");
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == CosmosClient.class || type == CosmosAsyncClient.class || type == PartitaServer.class
                || type == Engine.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Running running = running(context);
        Class<?> type = parameter.getParameter().getType();
        if (type == CosmosClient.class) {
            return running.syncClient();
        }
        if (type == CosmosAsyncClient.class) {
            return running.asyncClient();
        }
        if (type == PartitaServer.class) {
            return running.server;
        }
        if (type == Engine.class) {
            return running.engine;
        }
        throw new ParameterResolutionException("Partita cannot supply a " + type.getName());
    }

    private static Running running(ExtensionContext context) {
        ExtensionContext classContext = context.getTestClass().isPresent() && context.getTestMethod().isPresent()
                ? context.getParent().orElse(context) : context;
        Class<?> testClass = classContext.getRequiredTestClass();
        PartitaTest options = testClass.getAnnotation(PartitaTest.class);
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(Running.class, k -> new Running(options),
                Running.class);
    }

    /** The limits the annotation asks for: the documented defaults, scaled, then overridden one by one. */
    static Limits limits(PartitaTest options) {
        Limits l = Limits.DEFAULTS;
        if (options == null) {
            return l;
        }
        if (options.limitsScale() != 1) {
            l = l.scaled(options.limitsScale());
        }
        for (String setting : options.limits()) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("@PartitaTest(limits) takes \"name=value\" settings; got '"
                        + setting + "'.");
            }
            l = l.with(setting.substring(0, eq).trim(), setting.substring(eq + 1));
        }
        return l;
    }

    /** One in-process Partita and its clients, closed when the test class is done. */
    static final class Running implements ExtensionContext.Store.CloseableResource {
        final Engine engine;
        final PartitaServer server;
        private CosmosClient sync;
        private CosmosAsyncClient async;

        Running(PartitaTest options) {
            boolean https = options != null && options.https();
            engine = Engine.open(new MemoryStore(), Clock.systemUTC(), limits(options));
            engine.capacity().enforce(options != null && options.enforceCapacity())
                    .burstCapacity(options != null && options.burstCapacity());
            if (options != null) {
                engine.capacity().defaultConsistency(Consistency.named(options.defaultConsistency().toString()));
            }
            engine.startBackgroundTasks();
            if (options != null) {
                for (String spec : options.faults()) {
                    engine.faults().add(dev.partita.core.fault.FaultRule.parse(spec));
                }
            }
            try {
                server = PartitaServer.start(engine, new ServerOptions("localhost", 0, https,
                        https ? Files.createTempDirectory("partita-tls") : null, Keys.emulator(), false));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private CosmosClientBuilder builder() {
            return new CosmosClientBuilder().endpoint(server.endpoint()).key(Keys.emulator().primary()).gatewayMode()
                    .endpointDiscoveryEnabled(false);
        }

        synchronized CosmosClient syncClient() {
            if (sync == null) {
                sync = builder().buildClient();
            }
            return sync;
        }

        synchronized CosmosAsyncClient asyncClient() {
            if (async == null) {
                async = builder().buildAsyncClient();
            }
            return async;
        }

        @Override
        public void close() {
            if (sync != null) {
                sync.close();
            }
            if (async != null) {
                async.close();
            }
            server.close();
            engine.close();
        }
    }
}
