package dev.partita.sql.ast;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Objects;

/**
 * A scalar expression. Every implementation is an immutable record; {@code equals} is structural.
 */
public sealed interface Expr {

    /** A constant. {@code value} is {@code null} for the literal {@code undefined}. */
    record Literal(JsonNode value) implements Expr {
    }

    /** A parameter reference; {@code name} includes the leading {@code @}. */
    record Param(String name) implements Expr {
        public Param {
            Objects.requireNonNull(name);
        }
    }

    /** A reference to a FROM alias (or, before binding, any bare identifier). */
    record Identifier(String name) implements Expr {
        public Identifier {
            Objects.requireNonNull(name);
        }
    }

    /** {@code target.name}, or {@code target["name"]} (then {@code bracket} is true). */
    record Member(Expr target, String name, boolean bracket) implements Expr {
    }

    /** {@code target[index]} with a computed (non string-literal) index. */
    record Index(Expr target, Expr index) implements Expr {
    }

    /** Prefix operator. */
    record Unary(UnaryOp op, Expr operand) implements Expr {
    }

    /** Infix operator (arithmetic, comparison, logical, bitwise, concat, coalesce). */
    record Binary(BinaryOp op, Expr left, Expr right) implements Expr {
    }

    /** {@code cond ? whenTrue : whenFalse}. */
    record Conditional(Expr condition, Expr whenTrue, Expr whenFalse) implements Expr {
    }

    /** {@code value [NOT] BETWEEN low AND high}. */
    record Between(Expr value, Expr low, Expr high, boolean not) implements Expr {
    }

    /** {@code value [NOT] IN (items...)}. */
    record In(Expr value, List<Expr> items, boolean not) implements Expr {
        public In {
            items = List.copyOf(items);
        }
    }

    /** {@code value [NOT] LIKE pattern [ESCAPE escape]}; {@code escape} may be null. */
    record Like(Expr value, Expr pattern, Expr escape, boolean not) implements Expr {
    }

    /** A built-in function call; {@code name} as written (functions are case-insensitive). */
    record Call(String name, List<Expr> args) implements Expr {
        public Call {
            args = List.copyOf(args);
        }
    }

    /**
     * A user-defined function call {@code udf.name(args)}: JavaScript the container stores, evaluated per row through
     * the {@link dev.partita.sql.functions.UserFunctions} the caller supplies. {@code name} is case-sensitive.
     */
    record UdfCall(String name, List<Expr> args) implements Expr {
        public UdfCall {
            Objects.requireNonNull(name);
            args = List.copyOf(args);
        }
    }

    /** Array constructor {@code [a, b, ...]}. */
    record ArrayCtor(List<Expr> items) implements Expr {
        public ArrayCtor {
            items = List.copyOf(items);
        }
    }

    /** One property of an object constructor. */
    record Property(String name, Expr value) implements Expr {
    }

    /** Object constructor {@code {k: v, ...}}. */
    record ObjectCtor(List<Property> properties) implements Expr {
        public ObjectCtor {
            properties = List.copyOf(properties);
        }
    }

    /** A subquery used as an expression. */
    record Subquery(SubqueryKind kind, Query query) implements Expr {
    }

    /** How a subquery expression turns rows into a value. */
    enum SubqueryKind {
        /** {@code (SELECT ...)}: the single row, or undefined when there is none. */
        SCALAR,
        /** {@code EXISTS(SELECT ...)}: true when there is at least one row. */
        EXISTS,
        /** {@code ARRAY(SELECT ...)}: all rows as an array. */
        ARRAY,
        /** {@code ALL(SELECT ...)}: true when every row is boolean true (SDK grammar only). */
        ALL,
        /** {@code FIRST(SELECT ...)}: the first row (SDK grammar only). */
        FIRST,
        /** {@code LAST(SELECT ...)}: the last row (SDK grammar only). */
        LAST
    }

    /** Prefix operators. */
    enum UnaryOp {
        NEGATE("-"), PLUS("+"), BIT_NOT("~"), NOT("NOT");

        private final String symbol;

        UnaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    /** Infix operators. */
    enum BinaryOp {
        MUL("*"), DIV("/"), MOD("%"), ADD("+"), SUB("-"),
        SHL("<<"), SHR(">>"), USHR(">>>"),
        LT("<"), GT(">"), LE("<="), GE(">="), EQ("="), NEQ("!="),
        BIT_AND("&"), BIT_XOR("^"), BIT_OR("|"), CONCAT("||"),
        AND("AND"), OR("OR"), COALESCE("??");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }
}
