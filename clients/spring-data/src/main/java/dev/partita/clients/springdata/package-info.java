/**
 * A small Spring Boot application on Spring Data Cosmos ({@code azure-spring-data-cosmos}), the third client judging
 * Partita after the Java and JavaScript SDKs: its tests run it against an in-process Partita and record, with
 * {@code @Disabled}, where Partita answers differently from the service. Depends on Spring and the SDK only.
 */
package dev.partita.clients.springdata;
