package dev.partita.core.account;

import java.util.List;

/** One entry of a container's unique key policy: the paths whose values must be unique in a logical partition. */
public record UniqueKey(List<String> paths) {
    public UniqueKey {
        paths = List.copyOf(paths);
    }
}
