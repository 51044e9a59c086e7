package dev.partita.clients.springdata;

import com.azure.cosmos.CosmosClientBuilder;
import com.azure.spring.data.cosmos.config.AbstractCosmosConfiguration;
import com.azure.spring.data.cosmos.config.CosmosConfig;
import com.azure.spring.data.cosmos.core.mapping.EnableCosmosAuditing;
import com.azure.spring.data.cosmos.repository.config.EnableCosmosRepositories;
import com.azure.spring.data.cosmos.repository.config.EnableReactiveCosmosRepositories;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.auditing.DateTimeProvider;

/**
 * The Cosmos account (gateway mode), the repositories, auditing on the application's clock, and query diagnostics.
 */
@Configuration
@EnableCosmosRepositories
@EnableReactiveCosmosRepositories
@EnableCosmosAuditing(dateTimeProviderRef = "auditingDateTimeProvider")
public class ShopCosmosConfiguration extends AbstractCosmosConfiguration {
    @Value("${cosmos.endpoint}")
    private String endpoint;

    @Value("${cosmos.key}")
    private String key;

    @Value("${cosmos.database:shop}")
    private String database;

    @Bean
    public CosmosClientBuilder cosmosClientBuilder() {
        return new CosmosClientBuilder().endpoint(endpoint).key(key).gatewayMode();
    }

    // static: the auditing handler is injected into this configuration, so its date provider must not need it
    @Bean
    public static Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    public static DateTimeProvider auditingDateTimeProvider(Clock clock) {
        return () -> Optional.of(OffsetDateTime.now(clock));
    }

    @Bean
    public RequestCharges requestCharges() {
        return new RequestCharges();
    }

    /** Query and index metrics on, every response's diagnostics to {@link RequestCharges}. */
    @Bean
    @Override
    public CosmosConfig cosmosConfig() {
        return CosmosConfig.builder().enableQueryMetrics(true).enableIndexMetrics(true)
                .responseDiagnosticsProcessor(requestCharges()).build();
    }

    @Override
    protected String getDatabaseName() {
        return database;
    }
}
