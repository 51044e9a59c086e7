/**
 * Every limit of the service in one value, {@link dev.partita.core.limits.Limits}: item and request sizes, logical and
 * physical partition sizes and throughput, batch sizes, id lengths, TTL and retention windows, throughput steps, clock
 * skew, and the timings of background work — the service's figures as defaults, overridable by name and scalable for
 * tests and simulations. A leaf: it depends on nothing, and every package reads limits from here rather than keeping
 * a copy.
 */
package dev.partita.core.limits;
