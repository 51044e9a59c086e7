package dev.partita.core.index.fulltext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.core.error.ServiceException;
import dev.partita.sql.search.SearchPolicy;
import dev.partita.sql.search.TextAnalysis;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A container's {@code fullTextPolicy} with the indexing policy's {@code fullTextIndexes}, validated: the languages
 * are ones the service analyses, and every full-text index names a path of the full-text policy.
 */
public final class FullTextPolicy {
    public static final FullTextPolicy NONE = new FullTextPolicy(SearchPolicy.DEFAULT_LANGUAGE, Map.of(), Set.of());
    /**
     * Windows locale ids the service takes for its languages: the JS SDK's policy tests give a path
     * {@code "language": "1033"} beside {@code "en-US"}.
     */
    private static final Map<String, String> LOCALE_IDS = Map.of("1033", "en-US", "1031", "de-DE", "3082", "es-ES",
            "1034", "es-ES", "1036", "fr-FR", "1040", "it-IT", "2070", "pt-PT", "1046", "pt-BR");

    private final String defaultLanguage;
    private final Map<String, String> languages;
    private final Set<String> indexed;

    private FullTextPolicy(String defaultLanguage, Map<String, String> languages, Set<String> indexed) {
        this.defaultLanguage = defaultLanguage;
        this.languages = languages;
        this.indexed = indexed;
    }

    /** The language the text at the path is analysed in. */
    public String language(String path) {
        return languages.getOrDefault(path, defaultLanguage);
    }

    /** True when the path has a full-text index. */
    public boolean isIndexed(String path) {
        return indexed.contains(path);
    }

    /** Parses and validates; every problem is a 400. */
    public static FullTextPolicy parse(JsonNode policy, JsonNode indexingPolicy) {
        String defaultLanguage = SearchPolicy.DEFAULT_LANGUAGE;
        Map<String, String> languages = new LinkedHashMap<>();
        if (policy != null && !policy.isNull()) {
            if (!policy.isObject()) {
                throw ServiceException.badRequest("The container's 'fullTextPolicy' must be an object.");
            }
            if (policy.has("defaultLanguage")) {
                defaultLanguage = language(policy.get("defaultLanguage"), "The full-text policy's 'defaultLanguage'");
            }
            JsonNode paths = policy.get("fullTextPaths");
            if (paths != null && !paths.isNull()) {
                if (!paths.isArray()) {
                    throw ServiceException.badRequest("The full-text policy's 'fullTextPaths' must be an array.");
                }
                for (JsonNode p : paths) {
                    String path = path(p, "full-text path");
                    String language = p.has("language") ? language(p.get("language"),
                            "The language of the full-text path '" + path + "'") : defaultLanguage;
                    if (languages.putIfAbsent(path, language) != null) {
                        throw ServiceException.badRequest("The full-text path '" + path + "' appears more than once "
                                + "in 'fullTextPaths'.");
                    }
                }
            }
        }
        Set<String> indexed = new LinkedHashSet<>();
        JsonNode list = indexingPolicy == null ? null : indexingPolicy.get("fullTextIndexes");
        if (list != null && !list.isNull()) {
            if (!list.isArray()) {
                throw ServiceException.badRequest("The indexing policy's 'fullTextIndexes' must be an array.");
            }
            for (JsonNode e : list) {
                String path = path(e, "full-text index");
                if (!languages.containsKey(path)) {
                    throw ServiceException.badRequest("The full-text index path '" + path + "' is not defined in the "
                            + "container's full-text policy; add it to 'fullTextPolicy.fullTextPaths'.");
                }
                indexed.add(path);
            }
        }
        return languages.isEmpty() && indexed.isEmpty() && defaultLanguage.equals(SearchPolicy.DEFAULT_LANGUAGE)
                ? NONE : new FullTextPolicy(defaultLanguage, languages, indexed);
    }

    private static String language(JsonNode v, String what) {
        String given = v == null || !v.isTextual() ? null : LOCALE_IDS.getOrDefault(v.asText(), v.asText());
        if (!TextAnalysis.isSupported(given)) {
            throw ServiceException.badRequest(what + " is not supported; use one of "
                    + String.join(", ", TextAnalysis.LANGUAGES.stream().sorted().toList()) + ".");
        }
        return TextAnalysis.LANGUAGES.stream().filter(l -> l.equalsIgnoreCase(given)).findFirst().orElseThrow();
    }

    private static String path(JsonNode e, String what) {
        JsonNode p = e.get("path");
        if (p == null || !p.isTextual() || !p.asText().startsWith("/") || p.asText().length() < 2
                || p.asText().contains("*") || p.asText().contains("?") || p.asText().endsWith("/")) {
            throw ServiceException.badRequest("Every " + what + " needs a 'path' that starts with '/' and names a "
                    + "property, without wildcards.");
        }
        return p.asText();
    }
}
