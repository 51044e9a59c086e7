package dev.partita.sql.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.re2j.Pattern;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr.BinaryOp;
import dev.partita.sql.ast.Expr.SubqueryKind;
import dev.partita.sql.functions.Builtin;
import dev.partita.sql.value.Num;
import dev.partita.sql.value.Values;

import java.util.Set;

/** The evaluator node types. Each is immutable; all per-execution state lives in the {@link Frame}. */
final class Evals {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Evals() {
    }

    record Const(JsonNode value) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            return value;
        }
    }

    record ParamRef(int index) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            return f.params[index];
        }
    }

    record SlotRef(int slot) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            return f.slots[slot];
        }
    }

    record Member(Eval target, String name) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode t = target.eval(f);
            return t != null && t.isObject() ? t.get(name) : null;
        }
    }

    record Index(Eval target, Eval index) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode t = target.eval(f);
            if (t == null) {
                return null;
            }
            JsonNode i = index.eval(f);
            if (i == null) {
                return null;
            }
            if (i.isTextual()) {
                return t.isObject() ? t.get(i.textValue()) : null;
            }
            if (i.isNumber() && t.isArray() && Num.isInteger(i)) {
                long k = Num.longValue(i);
                return k >= 0 && k < t.size() ? t.get((int) k) : null;
            }
            return null;
        }
    }

    record Negate(Eval operand) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = operand.eval(f);
            if (v == null || !v.isNumber()) {
                return null;
            }
            if (Num.isExactLong(v) && v.longValue() != Long.MIN_VALUE) {
                return Num.of(-v.longValue());
            }
            return Num.of(-v.doubleValue());
        }
    }

    record UnaryPlus(Eval operand) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = operand.eval(f);
            return v != null && v.isNumber() ? v : null;
        }
    }

    record BitNot(Eval operand) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = operand.eval(f);
            return v != null && v.isNumber() ? Num.of(~Num.toInt32(v)) : null;
        }
    }

    record Not(Eval operand) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = operand.eval(f);
            return v != null && v.isBoolean() ? Values.bool(!v.booleanValue()) : null;
        }
    }

    record Arithmetic(BinaryOp op, Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            if (a == null || !a.isNumber()) {
                return null;
            }
            JsonNode b = right.eval(f);
            if (b == null || !b.isNumber()) {
                return null;
            }
            return arithmetic(op, a, b);
        }
    }

    static JsonNode arithmetic(BinaryOp op, JsonNode a, JsonNode b) {
        if (op != BinaryOp.DIV && Num.isExactLong(a) && Num.isExactLong(b)) {
            long x = a.longValue();
            long y = b.longValue();
            try {
                switch (op) {
                    case ADD:
                        return Num.of(Math.addExact(x, y));
                    case SUB:
                        return Num.of(Math.subtractExact(x, y));
                    case MUL:
                        return Num.of(Math.multiplyExact(x, y));
                    case MOD:
                        if (y != 0) {
                            return Num.of(x % y);
                        }
                        break;
                    default:
                        break;
                }
            } catch (ArithmeticException overflow) {
                // fall through to double arithmetic
            }
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        double r = switch (op) {
            case ADD -> x + y;
            case SUB -> x - y;
            case MUL -> x * y;
            case DIV -> x / y;
            case MOD -> x % y;
            default -> throw new IllegalStateException(op.name());
        };
        return Num.of(r);
    }

    record Bitwise(BinaryOp op, Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            if (a == null || !a.isNumber()) {
                return null;
            }
            JsonNode b = right.eval(f);
            if (b == null || !b.isNumber()) {
                return null;
            }
            int x = Num.toInt32(a);
            int y = Num.toInt32(b);
            return switch (op) {
                case BIT_AND -> Num.of(x & y);
                case BIT_OR -> Num.of(x | y);
                case BIT_XOR -> Num.of(x ^ y);
                case SHL -> Num.of(x << y);
                case SHR -> Num.of(x >> y);
                case USHR -> Num.of(Integer.toUnsignedLong(x >>> y));
                default -> throw new IllegalStateException(op.name());
            };
        }
    }

    record Compare(BinaryOp op, Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            if (a == null) {
                return null;
            }
            JsonNode b = right.eval(f);
            return compare(op, a, b);
        }
    }

    static JsonNode compare(BinaryOp op, JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return null;
        }
        if (op == BinaryOp.EQ) {
            return Values.bool(Values.deepEquals(a, b));
        }
        if (op == BinaryOp.NEQ) {
            return Values.bool(!Values.deepEquals(a, b));
        }
        int c = Values.compareForOperator(a, b);
        if (c == Integer.MIN_VALUE) {
            return null;
        }
        return Values.bool(switch (op) {
            case LT -> c < 0;
            case GT -> c > 0;
            case LE -> c <= 0;
            case GE -> c >= 0;
            default -> throw new IllegalStateException(op.name());
        });
    }

    record Concat(Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            if (a == null || !a.isTextual()) {
                return null;
            }
            JsonNode b = right.eval(f);
            if (b == null || !b.isTextual()) {
                return null;
            }
            Values.checkBuiltLength((long) a.textValue().length() + b.textValue().length(), "||");
            return TextNode.valueOf(a.textValue().concat(b.textValue()));
        }
    }

    /** Three-valued AND: false if either side is false, true if both are true, otherwise undefined. */
    record And(Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            boolean aBool = a != null && a.isBoolean();
            if (aBool && !a.booleanValue()) {
                return a;
            }
            JsonNode b = right.eval(f);
            boolean bBool = b != null && b.isBoolean();
            if (bBool && !b.booleanValue()) {
                return b;
            }
            return aBool && bBool ? b : null;
        }
    }

    /** Three-valued OR: true if either side is true, false if both are false, otherwise undefined. */
    record Or(Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            boolean aBool = a != null && a.isBoolean();
            if (aBool && a.booleanValue()) {
                return a;
            }
            JsonNode b = right.eval(f);
            boolean bBool = b != null && b.isBoolean();
            if (bBool && b.booleanValue()) {
                return b;
            }
            return aBool && bBool ? b : null;
        }
    }

    record Coalesce(Eval left, Eval right) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode a = left.eval(f);
            return a != null ? a : right.eval(f);
        }
    }

    record Conditional(Eval condition, Eval whenTrue, Eval whenFalse) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            return Values.isTrue(condition.eval(f)) ? whenTrue.eval(f) : whenFalse.eval(f);
        }
    }

    /** x BETWEEN lo AND hi, i.e. x >= lo AND x <= hi (three-valued); NOT BETWEEN negates. */
    record Between(Eval value, Eval low, Eval high, boolean not) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = value.eval(f);
            if (v == null) {
                return null;
            }
            int c1 = Values.compareForOperator(v, low.eval(f));
            if (c1 != Integer.MIN_VALUE && c1 < 0) {
                return Values.bool(not);
            }
            int c2 = Values.compareForOperator(v, high.eval(f));
            if (c2 != Integer.MIN_VALUE && c2 > 0) {
                return Values.bool(not);
            }
            if (c1 == Integer.MIN_VALUE || c2 == Integer.MIN_VALUE) {
                return null;
            }
            return Values.bool(!not);
        }
    }

    record In(Eval value, Eval[] items, boolean not) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = value.eval(f);
            if (v == null) {
                return null;
            }
            for (Eval item : items) {
                if (Values.deepEquals(v, item.eval(f))) {
                    return Values.bool(!not);
                }
            }
            return Values.bool(not);
        }
    }

    /** IN over a large constant list: hash lookup. */
    record InSet(Eval value, Set<Key> items, boolean not) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = value.eval(f);
            if (v == null) {
                return null;
            }
            return Values.bool(items.contains(Key.of(v)) != not);
        }
    }

    record LikeConst(Eval value, Pattern pattern, boolean not) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = value.eval(f);
            if (v == null || !v.isTextual()) {
                return null;
            }
            return Values.bool(pattern.matcher(v.textValue()).matches() != not);
        }
    }

    record LikeDynamic(Eval value, Eval pattern, Eval escape, boolean not) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode v = value.eval(f);
            if (v == null || !v.isTextual()) {
                return null;
            }
            JsonNode p = pattern.eval(f);
            if (p == null || !p.isTextual()) {
                return null;
            }
            char esc = 0;
            if (escape != null) {
                JsonNode e = escape.eval(f);
                if (e == null || !e.isTextual() || e.textValue().length() != 1) {
                    return null;
                }
                esc = e.textValue().charAt(0);
            }
            return Values.bool(Like.compile(p.textValue(), esc).matcher(v.textValue()).matches() != not);
        }
    }

    record Call(Builtin fn, Eval[] args) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode[] values = new JsonNode[args.length];
            boolean strict = fn.strict();
            for (int i = 0; i < args.length; i++) {
                JsonNode v = args[i].eval(f);
                if (v == null && strict) {
                    return null;
                }
                values[i] = v;
            }
            if (f != null) { // null while the compiler folds a constant call: no item's work
                f.called();
            }
            return fn.apply(values, f);
        }
    }

    /** {@code udf.name(args)}: undefined arguments are passed as undefined (user functions are not strict). */
    record UdfCall(String name, Eval[] args) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            JsonNode[] values = new JsonNode[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = args[i].eval(f);
            }
            f.called();
            return f.userFunctions().call(name, values);
        }
    }

    record ArrayCtor(Eval[] items) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            ArrayNode out = F.arrayNode(items.length);
            for (Eval item : items) {
                JsonNode v = item.eval(f);
                if (v != null) {
                    out.add(v);
                }
            }
            return out;
        }
    }

    record ObjectCtor(String[] names, Eval[] values) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            ObjectNode out = F.objectNode();
            for (int i = 0; i < names.length; i++) {
                JsonNode v = values[i].eval(f);
                if (v != null) {
                    out.set(names[i], v);
                }
            }
            return out;
        }
    }

    record Subquery(SubqueryKind kind, CompiledQuery query) implements Eval {
        @Override
        public JsonNode eval(Frame f) {
            switch (kind) {
                case EXISTS: {
                    boolean[] found = {false};
                    query.run(f, row -> {
                        found[0] = true;
                        return false;
                    });
                    return Values.bool(found[0]);
                }
                case ARRAY: {
                    ArrayNode out = F.arrayNode();
                    query.run(f, row -> {
                        out.add(row);
                        return true;
                    });
                    return out;
                }
                case FIRST: {
                    JsonNode[] first = {null};
                    query.run(f, row -> {
                        first[0] = row;
                        return false;
                    });
                    return first[0];
                }
                case LAST: {
                    JsonNode[] last = {null};
                    query.run(f, row -> {
                        last[0] = row;
                        return true;
                    });
                    return last[0];
                }
                case ALL: {
                    boolean[] all = {true};
                    query.run(f, row -> {
                        if (!Values.isTrue(row)) {
                            all[0] = false;
                            return false;
                        }
                        return true;
                    });
                    return Values.bool(all[0]);
                }
                default: {
                    JsonNode[] single = {null};
                    query.run(f, row -> {
                        if (single[0] != null) {
                            throw new SqlException("A scalar subquery returned more than one row; the cardinality of a "
                                    + "scalar subquery result set cannot exceed 1. Use ARRAY(...) or TOP 1.");
                        }
                        single[0] = row;
                        return true;
                    });
                    return single[0];
                }
            }
        }
    }
}
