package dev.partita.sql;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * The documented query cases ({@code conformance/query-cases.jsonl} in the test resources: a copy of the team's
 * shared conformance set, see the README beside it), read from the test classpath.
 */
public final class ConformanceCases {
    public static final Path FILE = locate();

    private ConformanceCases() {
    }

    private static Path locate() {
        URL url = ConformanceCases.class.getResource("/conformance/query-cases.jsonl");
        if (url == null) {
            throw new IllegalStateException("conformance/query-cases.jsonl is not on the test classpath");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
