package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.partita.sql.value.Num;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;

import static dev.partita.sql.functions.Builtins.add;
import static dev.partita.sql.functions.Builtins.addNonDeterministic;
import static dev.partita.sql.functions.Builtins.isNum;

/** Mathematical functions: double math, half-away-from-zero ROUND, NumberBin, 64-bit Int* functions. */
final class MathFunctions {
    private MathFunctions() {
    }

    static void register() {
        add("ABS", 1, 1, true, (a, e) -> {
            if (!isNum(a[0])) {
                return null;
            }
            if (Num.isExactLong(a[0]) && a[0].longValue() != Long.MIN_VALUE) {
                return Num.of(Math.abs(a[0].longValue()));
            }
            return Num.of(Math.abs(a[0].doubleValue()));
        });
        integralPreserving("CEILING", Math::ceil);
        integralPreserving("FLOOR", Math::floor);
        integralPreserving("TRUNC", d -> d < 0 ? Math.ceil(d) : Math.floor(d));
        integralPreserving("ROUND", MathFunctions::roundHalfAwayFromZero);
        unary("SIGN", Math::signum);
        unary("SQRT", Math::sqrt);
        unary("SQUARE", d -> d * d);
        unary("EXP", Math::exp);
        unary("LOG10", Math::log10);
        unary("SIN", Math::sin);
        unary("COS", Math::cos);
        unary("TAN", Math::tan);
        unary("COT", d -> 1 / Math.tan(d));
        unary("ASIN", Math::asin);
        unary("ACOS", Math::acos);
        unary("ATAN", Math::atan);
        unary("DEGREES", Math::toDegrees);
        unary("RADIANS", Math::toRadians);
        add("LOG", 1, 2, true, (a, e) -> {
            if (!isNum(a[0])) {
                return null;
            }
            if (a.length == 1) {
                return Num.of(Math.log(a[0].doubleValue()));
            }
            if (!isNum(a[1])) {
                return null;
            }
            return Num.of(Math.log10(a[0].doubleValue()) / Math.log10(a[1].doubleValue()));
        });
        add("ATN2", 2, 2, true, (a, e) -> isNum(a[0]) && isNum(a[1])
                ? Num.of(Math.atan2(a[0].doubleValue(), a[1].doubleValue())) : null);
        add("POWER", 2, 2, true, (a, e) -> isNum(a[0]) && isNum(a[1])
                ? Num.of(Math.pow(a[0].doubleValue(), a[1].doubleValue())) : null);
        add("PI", 0, 0, true, (a, e) -> Num.of(Math.PI));
        addNonDeterministic("RAND", 0, 0, (a, e) -> Num.of(ThreadLocalRandom.current().nextDouble()));
        add("NumberBin", 1, 2, true, (a, e) -> {
            if (!isNum(a[0])) {
                return null;
            }
            double size = 1;
            if (a.length > 1) {
                if (!isNum(a[1])) {
                    return null;
                }
                size = a[1].doubleValue();
            }
            if (size == 0 || !Double.isFinite(size)) {
                return null;
            }
            double x = a[0].doubleValue();
            return Num.of(numberBin(x, size));
        });
        intBinary("IntAdd", (x, y) -> x + y);
        intBinary("IntSub", (x, y) -> x - y);
        intBinary("IntMul", (x, y) -> x * y);
        intBinary("IntBitAnd", (x, y) -> x & y);
        intBinary("IntBitOr", (x, y) -> x | y);
        intBinary("IntBitXor", (x, y) -> x ^ y);
        intBinary("IntBitLeftShift", (x, y) -> x << y);
        intBinary("IntBitRightShift", (x, y) -> x >> y);
        add("IntDiv", 2, 2, true, (a, e) -> {
            if (!Num.isInteger(a[0]) || !Num.isInteger(a[1]) || Num.longValue(a[1]) == 0) {
                return null;
            }
            return Num.of(Num.longValue(a[0]) / Num.longValue(a[1]));
        });
        add("IntMod", 2, 2, true, (a, e) -> {
            if (!Num.isInteger(a[0]) || !Num.isInteger(a[1]) || Num.longValue(a[1]) == 0) {
                return null;
            }
            return Num.of(Num.longValue(a[0]) % Num.longValue(a[1]));
        });
        add("IntBitNot", 1, 1, true, (a, e) -> Num.isInteger(a[0]) ? Num.of(~Num.longValue(a[0])) : null);
    }

    /** Floor {@code x} to a multiple of {@code size}, avoiding binary noise for decimal bin sizes (37.752 / 0.1 → 37.7). */
    static double numberBin(double x, double size) {
        double q = Math.floor(x / size);
        double r = q * size;
        if (!Double.isFinite(q)) {
            return r; // a quotient past the doubles (1e308 in bins of 1e-308) has no decimal form to prefer
        }
        // q * size may carry representation noise (377 * 0.1 = 37.7000000000000028); prefer the shortest
        // decimal that is within one ulp when the size has a short decimal form.
        java.math.BigDecimal exact = java.math.BigDecimal.valueOf(q).multiply(java.math.BigDecimal.valueOf(size));
        double viaDecimal = exact.doubleValue();
        return Double.isFinite(viaDecimal) ? viaDecimal : r;
    }

    static double roundHalfAwayFromZero(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return d;
        }
        double abs = Math.abs(d);
        double floor = Math.floor(abs);
        double r = (abs - floor) >= 0.5 ? floor + 1 : floor;
        return Math.copySign(r, d);
    }

    private static void unary(String name, DoubleUnaryOperator op) {
        add(name, 1, 1, true, (a, e) -> isNum(a[0]) ? Num.of(op.applyAsDouble(a[0].doubleValue())) : null);
    }

    private static void integralPreserving(String name, DoubleUnaryOperator op) {
        add(name, 1, 1, true, (a, e) -> {
            JsonNode n = a[0];
            if (!isNum(n)) {
                return null;
            }
            if (Num.isExactLong(n)) {
                return n;
            }
            return Num.of(op.applyAsDouble(n.doubleValue()));
        });
    }

    private static void intBinary(String name, LongBinaryOperator op) {
        add(name, 2, 2, true, (a, e) -> Num.isInteger(a[0]) && Num.isInteger(a[1])
                ? Num.of(op.applyAsLong(Num.longValue(a[0]), Num.longValue(a[1]))) : null);
    }
}
