package dev.partita.sql.parse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.partita.sql.CosmosSqlParser;
import dev.partita.sql.CosmosSqlParser.*;
import dev.partita.sql.SqlException;
import dev.partita.sql.ast.Expr;
import dev.partita.sql.ast.Expr.BinaryOp;
import dev.partita.sql.ast.Expr.UnaryOp;
import dev.partita.sql.ast.Query;
import dev.partita.sql.ast.Query.Collection;
import dev.partita.sql.ast.Query.Count;
import dev.partita.sql.ast.Query.FromSource;
import dev.partita.sql.ast.Query.OrderItem;
import dev.partita.sql.ast.Query.PathSegment;
import dev.partita.sql.ast.Query.SelectItem;
import dev.partita.sql.ast.Query.Selection;
import dev.partita.sql.search.SearchFunctions;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/** Builds the immutable AST from an ANTLR parse tree (static, stateless). */
public final class AstBuilder {
    private static final long MAX_COUNT = 4294967295L; // 2^32 - 1

    private AstBuilder() {
    }

    static Query query(SelectQueryContext ctx) {
        SelectClauseContext sc = ctx.selectClause();
        boolean distinct = sc.DISTINCT() != null;
        Count top = sc.topSpec() == null ? null : count(sc.topSpec().countValue(), "SC2060",
                "The count value provided for a TOP clause must be an integer.");
        Selection selection = selection(sc.selection());
        List<FromSource> from = ctx.fromClause() == null ? List.of() : from(ctx.fromClause());
        Expr where = ctx.whereClause() == null ? null : expr(ctx.whereClause().scalarExpr());
        List<Expr> groupBy = new ArrayList<>();
        if (ctx.groupByClause() != null) {
            for (ScalarExprContext e : ctx.groupByClause().scalarExpr()) {
                groupBy.add(expr(e));
            }
        }
        List<OrderItem> orderBy = new ArrayList<>();
        if (ctx.orderByClause() instanceof OrderByRankContext rank) {
            for (OrderItemContext oi : rank.orderItem()) {
                if (oi.ASC() != null || oi.DESC() != null) {
                    // the service's words (the Java SDK's HybridSearchQueryTest.wrongHybridQueryTest)
                    throw new SqlException("Specifying a sort order (ASC or DESC) in the ORDER BY RANK clause is not"
                            + " allowed.");
                }
                Expr score = expr(oi.scalarExpr());
                if (!SearchFunctions.isRankCall(score)) {
                    throw new SqlException("ORDER BY RANK needs a scoring function: FullTextScore, VectorDistance or "
                            + "RRF.");
                }
                orderBy.add(new OrderItem(score, false, false));
            }
        } else if (ctx.orderByClause() instanceof OrderByItemsContext items) {
            for (OrderItemContext oi : items.orderItem()) {
                orderBy.add(new OrderItem(expr(oi.scalarExpr()), oi.DESC() != null,
                        oi.DESC() != null || oi.ASC() != null));
            }
        }
        Count offset = null;
        Count limit = null;
        if (ctx.offsetLimitClause() != null) {
            offset = count(ctx.offsetLimitClause().countValue(0), "SC2062",
                    "The OFFSET count value exceeds the maximum allowed value.");
            limit = count(ctx.offsetLimitClause().countValue(1), "SC2061",
                    "The LIMIT count value exceeds the maximum allowed value.");
        }
        return new Query(distinct, top, selection, from, where, groupBy, orderBy, offset, limit);
    }

    /** "FROM c WHERE ..." treated as "SELECT * FROM c WHERE ...". */
    static Query condition(ConditionContext ctx) {
        List<FromSource> from = from(ctx.fromClause());
        Expr where = ctx.whereClause() == null ? null : expr(ctx.whereClause().scalarExpr());
        return new Query(false, null, new Selection.Star(), from, where, List.of(), List.of(), null, null);
    }

    private static Count count(CountValueContext ctx, String code, String message) {
        if (ctx.PARAM() != null) {
            return new Count.Parameter(ctx.PARAM().getText());
        }
        String text = ctx.NUMBER().getText();
        Token t = ctx.NUMBER().getSymbol();
        JsonNode n = number(text);
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            if (n.isIntegralNumber() || (n.isNumber() && n.doubleValue() == Math.rint(n.doubleValue()))) {
                throw new SqlException(code, message, t.getStartIndex(), t.getStopIndex() + 1);
            }
            throw new SqlException("SC2060", "The count value provided for a TOP, OFFSET or LIMIT clause must be an "
                    + "integer.", t.getStartIndex(), t.getStopIndex() + 1);
        }
        long v = n.longValue();
        if (v > MAX_COUNT) {
            throw new SqlException(code, message, t.getStartIndex(), t.getStopIndex() + 1);
        }
        return new Count.Constant(v);
    }

    private static Selection selection(SelectionContext ctx) {
        if (ctx instanceof SelectStarContext) {
            return new Selection.Star();
        }
        if (ctx instanceof SelectValueContext v) {
            return new Selection.Value(expr(v.scalarExpr()));
        }
        SelectListContext list = (SelectListContext) ctx;
        List<SelectItem> items = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int unnamed = 0;
        for (SelectItemContext item : list.selectItem()) {
            Expr e = expr(item.scalarExpr());
            String alias = item.identifier() == null ? null : item.identifier().getText();
            String name = alias;
            if (name == null) {
                name = impliedName(e);
            }
            if (name == null) {
                name = "$" + (++unnamed);
            }
            if (!names.add(name)) {
                throw new SqlException("The select list produces the property name '" + name
                        + "' more than once; give the items distinct names with AS.");
            }
            items.add(new SelectItem(e, alias, name));
        }
        return new Selection.Items(items);
    }

    private static String impliedName(Expr e) {
        if (e instanceof Expr.Identifier id) {
            return id.name();
        }
        if (e instanceof Expr.Member m) {
            return m.name();
        }
        return null;
    }

    private static List<FromSource> from(FromClauseContext ctx) {
        List<FromSource> out = new ArrayList<>();
        for (FromSourceContext fs : ctx.fromSource()) {
            if (fs instanceof FromInContext in) {
                out.add(new FromSource(in.identifier().getText(), collection(in.collection()), true));
            } else {
                FromAliasContext fa = (FromAliasContext) fs;
                Collection c = collection(fa.collection());
                String alias = fa.identifier() == null ? null : fa.identifier().getText();
                if (alias == null) {
                    if (c instanceof Collection.Path p) {
                        if (p.segments().isEmpty()) {
                            alias = p.name();
                        } else if (p.segments().get(p.segments().size() - 1) instanceof PathSegment.Name n) {
                            alias = n.name();
                        }
                    } else if (out.isEmpty()) {
                        // FROM (SELECT ...) without alias, as in SELECT VALUE COUNT(1) FROM (SELECT DISTINCT ...):
                        // its rows can be counted but not referenced
                        alias = "";
                    }
                    if (alias == null) {
                        throw new SqlException("This FROM source needs an alias: write it as '<source> AS <alias>'.");
                    }
                }
                out.add(new FromSource(alias, c, false));
            }
        }
        return out;
    }

    private static Collection collection(CollectionContext ctx) {
        List<PathSegment> segments = new ArrayList<>();
        for (PathSegmentContext ps : ctx.pathSegment()) {
            if (ps instanceof PathMemberContext m) {
                segments.add(new PathSegment.Name(m.propertyName().getText()));
            } else {
                PathIndexContext pi = (PathIndexContext) ps;
                if (pi.STRING() != null) {
                    segments.add(new PathSegment.Name(unquote(pi.STRING().getText())));
                } else {
                    JsonNode n = number(pi.NUMBER().getText());
                    if (!n.canConvertToInt() || !n.isIntegralNumber() || n.intValue() < 0) {
                        throw new SqlException("An array index in a FROM path must be a non-negative integer.");
                    }
                    segments.add(new PathSegment.Position(n.intValue()));
                }
            }
        }
        CollectionPrimaryContext primary = ctx.collectionPrimary();
        if (primary instanceof CollectionSubqueryContext sq) {
            if (!segments.isEmpty()) {
                throw new SqlException("A FROM subquery cannot be followed by a property path; "
                        + "put the path inside the subquery.");
            }
            return new Collection.SubqueryCollection(query(sq.selectQuery()));
        }
        return new Collection.Path(((CollectionNameContext) primary).identifier().getText(), segments);
    }

    // ------------------------------------------------------------------ expressions

    static Expr expr(ScalarExprContext ctx) {
        List<ConditionalExprContext> parts = ctx.conditionalExpr();
        Expr e = conditional(parts.get(0));
        for (int i = 1; i < parts.size(); i++) {
            e = new Expr.Binary(BinaryOp.COALESCE, e, conditional(parts.get(i)));
        }
        return e;
    }

    private static Expr conditional(ConditionalExprContext ctx) {
        Expr cond = or(ctx.orExpr());
        if (ctx.QUESTION() == null) {
            return cond;
        }
        return new Expr.Conditional(cond, expr(ctx.scalarExpr()), conditional(ctx.conditionalExpr()));
    }

    private static Expr or(OrExprContext ctx) {
        return fold(ctx, c -> and((AndExprContext) c));
    }

    private static Expr and(AndExprContext ctx) {
        return fold(ctx, c -> predicate((PredicateExprContext) c));
    }

    private static Expr predicate(PredicateExprContext ctx) {
        Expr value = concat(ctx.concatExpr());
        PredicateTailContext tail = ctx.predicateTail();
        if (tail instanceof BetweenPredicateContext b) {
            return new Expr.Between(value, concat(b.concatExpr(0)), concat(b.concatExpr(1)), b.NOT() != null);
        }
        if (tail instanceof InPredicateContext in) {
            List<Expr> items = new ArrayList<>();
            for (ScalarExprContext s : in.scalarExpr()) {
                items.add(expr(s));
            }
            return new Expr.In(value, items, in.NOT() != null);
        }
        if (tail instanceof LikePredicateContext like) {
            Expr escape = like.ESCAPE() == null ? null : concat(like.concatExpr(1));
            return new Expr.Like(value, concat(like.concatExpr(0)), escape, like.NOT() != null);
        }
        return value;
    }

    private static Expr concat(ConcatExprContext ctx) {
        return fold(ctx, c -> fold((BitOrExprContext) c, AstBuilder::bitXor));
    }

    private static Expr bitXor(ParseTree ctx) {
        return fold((BitXorExprContext) ctx, AstBuilder::bitAnd);
    }

    private static Expr bitAnd(ParseTree ctx) {
        return fold((BitAndExprContext) ctx, AstBuilder::equality);
    }

    private static Expr equality(ParseTree ctx) {
        return fold((EqualityExprContext) ctx, AstBuilder::relational);
    }

    private static Expr relational(ParseTree ctx) {
        return fold((RelationalExprContext) ctx, AstBuilder::shift);
    }

    private static Expr shift(ParseTree ctx) {
        return fold((ShiftExprContext) ctx, AstBuilder::additive);
    }

    private static Expr additive(ParseTree ctx) {
        return fold((AdditiveExprContext) ctx, AstBuilder::multiplicative);
    }

    private static Expr multiplicative(ParseTree ctx) {
        return fold((MultiplicativeExprContext) ctx, c -> unary((UnaryExprContext) c));
    }

    /** Left-folds "operand (op operand)*" children into binary nodes. */
    private static Expr fold(ParserRuleContext ctx, Function<ParseTree, Expr> operand) {
        Expr e = operand.apply(ctx.getChild(0));
        for (int i = 1; i < ctx.getChildCount(); i += 2) {
            TerminalNode op = (TerminalNode) ctx.getChild(i);
            e = new Expr.Binary(binaryOp(op.getSymbol().getType()), e, operand.apply(ctx.getChild(i + 1)));
        }
        return e;
    }

    private static BinaryOp binaryOp(int type) {
        return switch (type) {
            case CosmosSqlParser.STAR -> BinaryOp.MUL;
            case CosmosSqlParser.SLASH -> BinaryOp.DIV;
            case CosmosSqlParser.PERCENT -> BinaryOp.MOD;
            case CosmosSqlParser.PLUS -> BinaryOp.ADD;
            case CosmosSqlParser.MINUS -> BinaryOp.SUB;
            case CosmosSqlParser.SHL -> BinaryOp.SHL;
            case CosmosSqlParser.SHR -> BinaryOp.SHR;
            case CosmosSqlParser.USHR -> BinaryOp.USHR;
            case CosmosSqlParser.LT -> BinaryOp.LT;
            case CosmosSqlParser.GT -> BinaryOp.GT;
            case CosmosSqlParser.LE -> BinaryOp.LE;
            case CosmosSqlParser.GE -> BinaryOp.GE;
            case CosmosSqlParser.EQ -> BinaryOp.EQ;
            case CosmosSqlParser.NEQ, CosmosSqlParser.LTGT -> BinaryOp.NEQ;
            case CosmosSqlParser.AMP -> BinaryOp.BIT_AND;
            case CosmosSqlParser.CARET -> BinaryOp.BIT_XOR;
            case CosmosSqlParser.PIPE -> BinaryOp.BIT_OR;
            case CosmosSqlParser.CONCAT -> BinaryOp.CONCAT;
            case CosmosSqlParser.AND -> BinaryOp.AND;
            case CosmosSqlParser.OR -> BinaryOp.OR;
            default -> throw new IllegalStateException("operator token " + type);
        };
    }

    private static Expr unary(UnaryExprContext ctx) {
        if (ctx instanceof PlainUnaryContext p) {
            return postfix(p.postfixExpr());
        }
        PrefixUnaryContext u = (PrefixUnaryContext) ctx;
        UnaryOp op = switch (u.getChild(0) instanceof TerminalNode t ? t.getSymbol().getType() : -1) {
            case CosmosSqlParser.MINUS -> UnaryOp.NEGATE;
            case CosmosSqlParser.PLUS -> UnaryOp.PLUS;
            case CosmosSqlParser.TILDE -> UnaryOp.BIT_NOT;
            default -> UnaryOp.NOT;
        };
        // -<integer literal>: keep 64-bit integer identity (e.g. -9223372036854775808)
        if (op == UnaryOp.NEGATE && u.unaryExpr() instanceof PlainUnaryContext p
                && p.postfixExpr().postfixOp().isEmpty()
                && p.postfixExpr().primaryExpr() instanceof LiteralExprContext lit
                && lit.literal().NUMBER() != null) {
            return new Expr.Literal(negate(lit.literal().NUMBER().getText()));
        }
        return new Expr.Unary(op, unary(u.unaryExpr()));
    }

    private static Expr postfix(PostfixExprContext ctx) {
        Expr e = primary(ctx.primaryExpr());
        for (PostfixOpContext op : ctx.postfixOp()) {
            if (op instanceof MemberOpContext m) {
                e = new Expr.Member(e, m.propertyName().getText(), false);
            } else {
                Expr index = expr(((IndexOpContext) op).scalarExpr());
                if (index instanceof Expr.Literal l && l.value() != null && l.value().isTextual()) {
                    e = new Expr.Member(e, l.value().textValue(), true);
                } else {
                    e = new Expr.Index(e, index);
                }
            }
        }
        return e;
    }

    private static Expr primary(PrimaryExprContext ctx) {
        if (ctx instanceof LiteralExprContext l) {
            return new Expr.Literal(literal(l.literal()));
        }
        if (ctx instanceof ParamExprContext p) {
            return new Expr.Param(p.PARAM().getText());
        }
        if (ctx instanceof IdentifierExprContext id) {
            String name = id.identifier().getText();
            // the service accepts NaN and Infinity as numeric constants
            if (name.equals("NaN")) {
                return new Expr.Literal(DoubleNode.valueOf(Double.NaN));
            }
            if (name.equals("Infinity")) {
                return new Expr.Literal(DoubleNode.valueOf(Double.POSITIVE_INFINITY));
            }
            return new Expr.Identifier(name);
        }
        if (ctx instanceof CallExprContext call) {
            return new Expr.Call(call.functionName().getText(), arguments(call.arguments()));
        }
        if (ctx instanceof UdfCallExprContext udf) {
            return new Expr.UdfCall(udf.identifier().getText(), arguments(udf.arguments()));
        }
        if (ctx instanceof SubqueryFunctionExprContext sf) {
            String name = sf.functionName().getText();
            Expr.SubqueryKind kind = switch (name.toLowerCase(Locale.ROOT)) {
                case "all" -> Expr.SubqueryKind.ALL;
                case "first" -> Expr.SubqueryKind.FIRST;
                case "last" -> Expr.SubqueryKind.LAST;
                default -> throw new SqlException("The function '" + name + "' cannot take a SELECT directly; "
                        + "wrap the subquery in parentheses: " + name + "((SELECT ...)).");
            };
            return new Expr.Subquery(kind, query(sf.selectQuery()));
        }
        if (ctx instanceof ArrayExprContext arr) {
            return new Expr.ArrayCtor(arguments(arr.arguments()));
        }
        if (ctx instanceof ObjectExprContext obj) {
            List<Expr.Property> props = new ArrayList<>();
            for (ObjectPropertyContext p : obj.objectProperty()) {
                String key = p.STRING() != null ? unquote(p.STRING().getText()) : p.getChild(0).getText();
                props.add(new Expr.Property(key, expr(p.scalarExpr())));
            }
            return new Expr.ObjectCtor(props);
        }
        if (ctx instanceof ScalarSubqueryExprContext sq) {
            return new Expr.Subquery(Expr.SubqueryKind.SCALAR, query(sq.selectQuery()));
        }
        if (ctx instanceof ParenExprContext p) {
            return expr(p.scalarExpr());
        }
        if (ctx instanceof ExistsExprContext ex) {
            return new Expr.Subquery(Expr.SubqueryKind.EXISTS, query(ex.selectQuery()));
        }
        if (ctx instanceof ArraySubqueryExprContext as) {
            return new Expr.Subquery(Expr.SubqueryKind.ARRAY, query(as.selectQuery()));
        }
        throw new IllegalStateException("unhandled expression " + ctx.getClass().getSimpleName());
    }

    private static List<Expr> arguments(ArgumentsContext ctx) {
        if (ctx == null) {
            return List.of();
        }
        List<Expr> out = new ArrayList<>(ctx.scalarExpr().size());
        for (ScalarExprContext s : ctx.scalarExpr()) {
            out.add(expr(s));
        }
        return out;
    }

    private static JsonNode literal(LiteralContext ctx) {
        if (ctx.NUMBER() != null) {
            return number(ctx.NUMBER().getText());
        }
        if (ctx.STRING() != null) {
            return TextNode.valueOf(unquote(ctx.STRING().getText()));
        }
        if (ctx.TRUE() != null) {
            return BooleanNode.TRUE;
        }
        if (ctx.FALSE() != null) {
            return BooleanNode.FALSE;
        }
        if (ctx.NULL() != null) {
            return NullNode.instance;
        }
        return null; // undefined
    }

    /** A number literal: integers within 64 bits keep integer identity; others are doubles. */
    static JsonNode number(String text) {
        if (text.length() > 2 && (text.charAt(1) == 'x' || text.charAt(1) == 'X')) {
            BigInteger v = new BigInteger(text.substring(2), 16);
            return v.bitLength() < 64 ? LongNode.valueOf(v.longValue()) : DoubleNode.valueOf(v.doubleValue());
        }
        boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        if (integral) {
            try {
                return LongNode.valueOf(Long.parseLong(text));
            } catch (NumberFormatException e) {
                return DoubleNode.valueOf(new BigInteger(text).doubleValue());
            }
        }
        return DoubleNode.valueOf(Double.parseDouble(text));
    }

    private static JsonNode negate(String text) {
        JsonNode n = number(text);
        if (n.isIntegralNumber()) {
            return n.longValue() == 0 ? n : LongNode.valueOf(-n.longValue());
        }
        boolean integral = text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0
                && !(text.length() > 2 && (text.charAt(1) == 'x' || text.charAt(1) == 'X'));
        if (integral) {
            try {
                return LongNode.valueOf(Long.parseLong("-" + text));
            } catch (NumberFormatException e) {
                // falls through to double
            }
        }
        return DoubleNode.valueOf(-n.doubleValue());
    }

    /** The value of a quoted string literal (either quote style) with its escapes resolved. */
    static String unquote(String quoted) {
        String s = quoted.substring(1, quoted.length() - 1);
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> sb.append(n);
            }
        }
        return sb.toString();
    }
}
