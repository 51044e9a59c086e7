package dev.partita.sql.functions;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Date-time strings and ticks. A date-time is {@code YYYY-MM-DD[(T| )hh:mm:ss[.f{1,7}]][Z]}; output is
 * always {@code YYYY-MM-DDThh:mm:ss.fffffffZ}. Ticks are 100-ns units since the Unix epoch (negative
 * before 1970); years 1..9999.
 */
final class DateTimes {
    static final long INVALID = Long.MIN_VALUE;
    static final long TICKS_PER_SECOND = 10_000_000L;
    static final long TICKS_PER_MS = 10_000L;
    static final long TICKS_PER_MINUTE = 60 * TICKS_PER_SECOND;
    static final long TICKS_PER_HOUR = 60 * TICKS_PER_MINUTE;
    static final long TICKS_PER_DAY = 24 * TICKS_PER_HOUR;

    private static final Pattern FORMAT = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,7}))?)?Z?");

    /** The date-time parts. */
    enum Part {
        YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, NANOSECOND;

        static Part of(String name) {
            if (name == null) {
                return null;
            }
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "year", "yyyy", "yy" -> YEAR;
                case "month", "mm", "m" -> MONTH;
                case "day", "dd", "d" -> DAY;
                case "hour", "hh" -> HOUR;
                case "minute", "mi", "n" -> MINUTE;
                case "second", "ss", "s" -> SECOND;
                case "millisecond", "ms" -> MILLISECOND;
                case "microsecond", "mcs" -> MICROSECOND;
                case "nanosecond", "ns" -> NANOSECOND;
                default -> null;
            };
        }

        /** Length of the part in ticks, or 0 for calendar parts (year, month) and nanoseconds. */
        long ticks() {
            return switch (this) {
                case DAY -> TICKS_PER_DAY;
                case HOUR -> TICKS_PER_HOUR;
                case MINUTE -> TICKS_PER_MINUTE;
                case SECOND -> TICKS_PER_SECOND;
                case MILLISECOND -> TICKS_PER_MS;
                case MICROSECOND -> 10;
                default -> 0;
            };
        }
    }

    private DateTimes() {
    }

    /** Ticks of a date-time string, or {@link #INVALID}. */
    static long parse(String s) {
        Matcher m = FORMAT.matcher(s);
        if (!m.matches()) {
            return INVALID;
        }
        try {
            int year = Integer.parseInt(m.group(1));
            int month = Integer.parseInt(m.group(2));
            int day = Integer.parseInt(m.group(3));
            int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            long fraction = 0;
            if (m.group(7) != null) {
                String f = m.group(7);
                fraction = Long.parseLong(f) * pow10(7 - f.length());
            }
            if (year < 1) {
                return INVALID;
            }
            LocalDateTime t = LocalDateTime.of(year, month, day, hour, minute, second);
            return toTicks(t) + fraction;
        } catch (DateTimeException | NumberFormatException e) {
            return INVALID;
        }
    }

    static long toTicks(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * TICKS_PER_SECOND + t.getNano() / 100;
    }

    static long toTicks(Instant i) {
        return i.getEpochSecond() * TICKS_PER_SECOND + i.getNano() / 100;
    }

    static LocalDateTime toLocal(long ticks) {
        long seconds = Math.floorDiv(ticks, TICKS_PER_SECOND);
        long rest = Math.floorMod(ticks, TICKS_PER_SECOND);
        return LocalDateTime.ofEpochSecond(seconds, (int) (rest * 100), ZoneOffset.UTC);
    }

    /** The canonical text of ticks, or null when outside years 1..9999. */
    static String format(long ticks) {
        LocalDateTime t;
        try {
            t = toLocal(ticks);
        } catch (DateTimeException e) {
            return null;
        }
        if (t.getYear() < 1 || t.getYear() > 9999) {
            return null;
        }
        long fraction = Math.floorMod(ticks, TICKS_PER_SECOND);
        StringBuilder sb = new StringBuilder(28);
        pad(sb, t.getYear(), 4).append('-');
        pad(sb, t.getMonthValue(), 2).append('-');
        pad(sb, t.getDayOfMonth(), 2).append('T');
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2).append('.');
        pad(sb, fraction, 7).append('Z');
        return sb.toString();
    }

    static StringBuilder pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }

    static long pow10(int n) {
        long r = 1;
        for (int i = 0; i < n; i++) {
            r *= 10;
        }
        return r;
    }

    /** Adds n parts to ticks; INVALID on overflow or out of range. */
    static long add(long ticks, Part part, long n) {
        try {
            return switch (part) {
                case YEAR -> toTicks(toLocal(ticks).plusYears(n));
                case MONTH -> toTicks(toLocal(ticks).plusMonths(n));
                case NANOSECOND -> Math.addExact(ticks, n / 100);
                default -> Math.addExact(ticks, Math.multiplyExact(n, part.ticks()));
            };
        } catch (ArithmeticException | DateTimeException e) {
            return INVALID;
        }
    }
}
