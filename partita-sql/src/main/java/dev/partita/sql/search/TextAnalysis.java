package dev.partita.sql.search;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.br.BrazilianAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns text into the terms the full-text index holds: tokenisation, case folding, stop-word removal and stemming
 * for the languages the service supports, with Lucene's analyzer for each. Thread-safe (Lucene analyzers keep a
 * token stream per thread).
 */
public final class TextAnalysis {
    /** The languages a full-text policy may name. */
    public static final Set<String> LANGUAGES = Set.of("en-US", "de-DE", "es-ES", "fr-FR", "it-IT", "pt-PT", "pt-BR");

    private static final Map<String, Analyzer> ANALYZERS = Map.of(
            "en-us", new EnglishAnalyzer(),
            "de-de", new GermanAnalyzer(),
            "es-es", new SpanishAnalyzer(),
            "fr-fr", new FrenchAnalyzer(),
            "it-it", new ItalianAnalyzer(),
            "pt-pt", new PortugueseAnalyzer(),
            "pt-br", new BrazilianAnalyzer());

    private TextAnalysis() {
    }

    /** True when the language (any case) is one the service supports. */
    public static boolean isSupported(String language) {
        return language != null && ANALYZERS.containsKey(language.toLowerCase(Locale.ROOT));
    }

    /** The terms of the text in order (positions matter for phrases); an unknown language analyses as en-US. */
    public static List<String> terms(String text, String language) {
        Analyzer analyzer = ANALYZERS.getOrDefault(language == null ? "" : language.toLowerCase(Locale.ROOT),
                ANALYZERS.get("en-us"));
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream("", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringReader does not fail
        }
        return out;
    }
}
