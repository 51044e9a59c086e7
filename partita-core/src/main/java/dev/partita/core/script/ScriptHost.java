package dev.partita.core.script;

/**
 * What a running script's collection operations call: {@code op} is {@code create}, {@code upsert}, {@code replace},
 * {@code delete}, {@code read} or {@code query}; the arguments are the link, the document or query and the options,
 * each as JSON text or null. Answers JSON text: {@code {"accepted":false}}, or {@code {"accepted":true}} with a
 * {@code resource} and {@code options}, or with an {@code error} ({@code number}, {@code message}).
 */
@FunctionalInterface
interface ScriptHost {
    String call(String op, String link, String document, String options);
}
