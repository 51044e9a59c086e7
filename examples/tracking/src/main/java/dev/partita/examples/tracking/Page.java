package dev.partita.examples.tracking;

import java.util.List;

/** One page of rows and the token for the next (null at the end). */
public record Page<T>(List<T> rows, String continuation) {
}
