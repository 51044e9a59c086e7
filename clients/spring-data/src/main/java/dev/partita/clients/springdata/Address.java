package dev.partita.clients.springdata;

/** Where an order goes: a nested object, queried by path ({@code shipTo.zip}). */
public record Address(String street, String zip) {
}
