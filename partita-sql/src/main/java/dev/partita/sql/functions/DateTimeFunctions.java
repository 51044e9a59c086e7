package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.value.Num;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

import static dev.partita.sql.functions.Builtins.add;
import static dev.partita.sql.functions.Builtins.str;
import static dev.partita.sql.functions.DateTimes.INVALID;
import static dev.partita.sql.functions.DateTimes.Part;

/** Date and time functions; "now" always comes from the {@link FunctionEnv}. */
final class DateTimeFunctions {
    private DateTimeFunctions() {
    }

    static void register() {
        add("DateTimeAdd", 3, 3, true, (a, e) -> {
            Part part = Part.of(str(a[0]));
            long t = ticks(a[2]);
            if (part == null || t == INVALID || !Num.isInteger(a[1])) {
                return null;
            }
            return text(DateTimes.add(t, part, Num.longValue(a[1])));
        });
        add("DateTimeBin", 2, 4, true, (a, e) -> {
            long t = ticks(a[0]);
            Part part = Part.of(str(a[1]));
            if (t == INVALID || part == null) {
                return null;
            }
            long size = 1;
            if (a.length > 2) {
                if (!Num.isInteger(a[2]) || Num.longValue(a[2]) <= 0) {
                    return null;
                }
                size = Num.longValue(a[2]);
            }
            long origin = 0;
            if (a.length > 3) {
                origin = ticks(a[3]);
                if (origin == INVALID) {
                    return null;
                }
            }
            return text(bin(t, part, size, origin));
        });
        add("DateTimeDiff", 3, 3, true, (a, e) -> {
            Part part = Part.of(str(a[0]));
            long s = ticks(a[1]);
            long t = ticks(a[2]);
            if (part == null || s == INVALID || t == INVALID) {
                return null;
            }
            return Num.of(diff(part, s, t));
        });
        add("DateTimeFormat", 2, 2, true, (a, e) -> {
            long t = ticks(a[0]);
            String fmt = str(a[1]);
            if (t == INVALID || fmt == null) {
                return null;
            }
            String out = DotNetFormat.format(DateTimes.toLocal(t), Math.floorMod(t, DateTimes.TICKS_PER_SECOND), fmt);
            return out == null ? null : TextNode.valueOf(out);
        });
        add("DateTimeFromParts", 3, 7, true, (a, e) -> {
            long[] v = new long[7];
            for (int i = 0; i < a.length; i++) {
                if (!Num.isInteger(a[i])) {
                    return null;
                }
                v[i] = Num.longValue(a[i]);
            }
            if (v[6] < 0 || v[6] >= DateTimes.TICKS_PER_SECOND) {
                return null;
            }
            try {
                LocalDateTime t = LocalDateTime.of(Math.toIntExact(v[0]), Math.toIntExact(v[1]), Math.toIntExact(v[2]),
                        Math.toIntExact(v[3]), Math.toIntExact(v[4]), Math.toIntExact(v[5]));
                if (t.getYear() < 1) {
                    return null;
                }
                return text(DateTimes.toTicks(t) + v[6]);
            } catch (DateTimeException | ArithmeticException ex) {
                return null;
            }
        });
        add("DateTimePart", 2, 2, true, (a, e) -> {
            Part part = Part.of(str(a[0]));
            long t = ticks(a[1]);
            if (part == null || t == INVALID) {
                return null;
            }
            return Num.of(part(part, t));
        });
        add("DateTimeToTicks", 1, 1, true, (a, e) -> {
            long t = ticks(a[0]);
            return t == INVALID ? null : Num.of(t);
        });
        add("DateTimeToTimestamp", 1, 1, true, (a, e) -> {
            long t = ticks(a[0]);
            return t == INVALID ? null : Num.of(Math.floorDiv(t, DateTimes.TICKS_PER_MS));
        });
        add("TicksToDateTime", 1, 1, true, (a, e) -> Num.isInteger(a[0]) ? text(Num.longValue(a[0])) : null);
        add("TimestampToDateTime", 1, 1, true, (a, e) -> {
            if (!Num.isInteger(a[0])) {
                return null;
            }
            try {
                return text(Math.multiplyExact(Num.longValue(a[0]), DateTimes.TICKS_PER_MS));
            } catch (ArithmeticException ex) {
                return null;
            }
        });
        add("Day", 1, 1, true, (a, e) -> partOf(a[0], Part.DAY));
        add("Month", 1, 1, true, (a, e) -> partOf(a[0], Part.MONTH));
        add("Year", 1, 1, true, (a, e) -> partOf(a[0], Part.YEAR));

        Builtins.addNonDeterministic("GetCurrentDateTime", 0, 0, (a, e) -> text(DateTimes.toTicks(e.now())));
        Builtins.addNonDeterministic("GetCurrentTicks", 0, 0, (a, e) -> Num.of(DateTimes.toTicks(e.now())));
        Builtins.addNonDeterministic("GetCurrentTimestamp", 0, 0, (a, e) -> Num.of(e.now().toEpochMilli()));
        Builtins.addNonDeterministic("GetCurrentDateTimeStatic", 0, 0,
                (a, e) -> text(DateTimes.toTicks(e.staticNow())));
        Builtins.addNonDeterministic("GetCurrentTicksStatic", 0, 0,
                (a, e) -> Num.of(DateTimes.toTicks(e.staticNow())));
        Builtins.addNonDeterministic("GetCurrentTimestampStatic", 0, 0,
                (a, e) -> Num.of(e.staticNow().toEpochMilli()));
        Builtins.addNonDeterministic("Now", 0, 2, (a, e) -> {
            long now = DateTimes.toTicks(e.now());
            if (a.length == 0) {
                return text(now);
            }
            if (a.length != 2) {
                return null;
            }
            return shifted(now, a[0], a[1], 1);
        });
        Builtins.addNonDeterministic("Ago", 2, 2, (a, e) -> shifted(DateTimes.toTicks(e.now()), a[0], a[1], -1));
    }

    private static JsonNode shifted(long now, JsonNode partName, JsonNode amount, int sign) {
        Part part = Part.of(str(partName));
        if (part == null || !Num.isInteger(amount)) {
            return null;
        }
        return text(DateTimes.add(now, part, sign * Num.longValue(amount)));
    }

    private static long ticks(JsonNode n) {
        String s = str(n);
        return s == null ? INVALID : DateTimes.parse(s);
    }

    private static JsonNode text(long ticks) {
        if (ticks == INVALID) {
            return null;
        }
        String s = DateTimes.format(ticks);
        return s == null ? null : TextNode.valueOf(s);
    }

    private static JsonNode partOf(JsonNode dt, Part part) {
        long t = ticks(dt);
        return t == INVALID ? null : Num.of(part(part, t));
    }

    static long part(Part part, long ticks) {
        LocalDateTime t = DateTimes.toLocal(ticks);
        long fraction = Math.floorMod(ticks, DateTimes.TICKS_PER_SECOND);
        return switch (part) {
            case YEAR -> t.getYear();
            case MONTH -> t.getMonthValue();
            case DAY -> t.getDayOfMonth();
            case HOUR -> t.getHour();
            case MINUTE -> t.getMinute();
            case SECOND -> t.getSecond();
            case MILLISECOND -> fraction / DateTimes.TICKS_PER_MS;
            case MICROSECOND -> fraction / 10;
            case NANOSECOND -> fraction * 100;
        };
    }

    /** Signed count of part boundaries crossed going from s to t. */
    static long diff(Part part, long s, long t) {
        switch (part) {
            case YEAR:
                return DateTimes.toLocal(t).getYear() - DateTimes.toLocal(s).getYear();
            case MONTH: {
                LocalDateTime a = DateTimes.toLocal(s);
                LocalDateTime b = DateTimes.toLocal(t);
                return (b.getYear() - a.getYear()) * 12L + (b.getMonthValue() - a.getMonthValue());
            }
            case NANOSECOND:
                return (t - s) * 100;
            default: {
                long unit = part.ticks();
                return Math.floorDiv(t, unit) - Math.floorDiv(s, unit);
            }
        }
    }

    static long bin(long t, Part part, long size, long origin) {
        switch (part) {
            case YEAR:
            case MONTH: {
                LocalDateTime o = DateTimes.toLocal(origin);
                long step = part == Part.YEAR ? size * 12 : size;
                long months = diff(Part.MONTH, origin, t);
                long k = Math.floorDiv(months, step);
                long candidate = DateTimes.toTicks(o.plusMonths(k * step));
                while (candidate > t) {
                    k--;
                    candidate = DateTimes.toTicks(o.plusMonths(k * step));
                }
                return candidate;
            }
            case NANOSECOND: {
                long unit = Math.max(1, size / 100);
                return origin + Math.floorDiv(t - origin, unit) * unit;
            }
            default: {
                long unit = part.ticks() * size;
                return origin + Math.floorDiv(t - origin, unit) * unit;
            }
        }
    }

    /** .NET-style custom date-time format strings (the common specifiers). */
    static final class DotNetFormat {
        private DotNetFormat() {
        }

        static String format(LocalDateTime t, long fraction, String fmt) {
            StringBuilder sb = new StringBuilder();
            int i = 0;
            while (i < fmt.length()) {
                char c = fmt.charAt(i);
                int run = 1;
                while (i + run < fmt.length() && fmt.charAt(i + run) == c) {
                    run++;
                }
                switch (c) {
                    case 'y' -> {
                        int y = t.getYear();
                        if (run <= 2) {
                            int v = y % 100;
                            DateTimes.pad(sb, v, run);
                        } else {
                            DateTimes.pad(sb, y, run);
                        }
                    }
                    case 'M' -> {
                        if (run <= 2) {
                            DateTimes.pad(sb, t.getMonthValue(), run);
                        } else {
                            sb.append(t.getMonth().getDisplayName(run == 3 ? TextStyle.SHORT : TextStyle.FULL,
                                    Locale.ENGLISH));
                        }
                    }
                    case 'd' -> {
                        if (run <= 2) {
                            DateTimes.pad(sb, t.getDayOfMonth(), run);
                        } else {
                            sb.append(t.getDayOfWeek().getDisplayName(run == 3 ? TextStyle.SHORT : TextStyle.FULL,
                                    Locale.ENGLISH));
                        }
                    }
                    case 'H' -> DateTimes.pad(sb, t.getHour(), Math.min(run, 2));
                    case 'h' -> DateTimes.pad(sb, t.getHour() % 12 == 0 ? 12 : t.getHour() % 12, Math.min(run, 2));
                    case 'm' -> DateTimes.pad(sb, t.getMinute(), Math.min(run, 2));
                    case 's' -> DateTimes.pad(sb, t.getSecond(), Math.min(run, 2));
                    case 'f', 'F' -> {
                        if (run > 7) {
                            return null;
                        }
                        StringBuilder digits = new StringBuilder();
                        DateTimes.pad(digits, fraction, 7);
                        String d = digits.substring(0, run);
                        if (c == 'F') {
                            int end = d.length();
                            while (end > 0 && d.charAt(end - 1) == '0') {
                                end--;
                            }
                            d = d.substring(0, end);
                        }
                        sb.append(d);
                    }
                    case 't' -> {
                        String ampm = t.getHour() < 12 ? "AM" : "PM";
                        sb.append(run == 1 ? ampm.substring(0, 1) : ampm);
                    }
                    case 'K', 'z' -> sb.append(c == 'K' ? "Z" : "+00");
                    case '\\' -> {
                        if (i + 1 < fmt.length()) {
                            sb.append(fmt.charAt(i + 1));
                        }
                        i += 2;
                        continue;
                    }
                    case '\'', '"' -> {
                        int close = fmt.indexOf(c, i + 1);
                        if (close < 0) {
                            return null;
                        }
                        sb.append(fmt, i + 1, close);
                        i = close + 1;
                        continue;
                    }
                    default -> sb.append(String.valueOf(c).repeat(run));
                }
                i += run;
            }
            return sb.toString();
        }
    }
}
