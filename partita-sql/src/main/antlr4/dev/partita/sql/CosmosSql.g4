/*
 * Grammar of the Azure Cosmos DB for NoSQL query language, as described in
 * shared/docs/query-language.md (section 1). Written from that description; the
 * precedence ladder follows section 1.12, highest precedence at the bottom:
 *
 *   ??  <  ?:  <  OR  <  AND  <  [NOT] IN / LIKE / BETWEEN  <  ||  <  |  <  ^  <  &
 *       <  = != <>  <  < > <= >=  <  << >> >>>  <  + -  <  * / %  <  unary - + ~ NOT
 *       <  postfix .name [expr]  <  primary
 *
 * Keywords are case-insensitive; the literals true, false, null and undefined are
 * lower-case only (as in the SDK grammar). Rule and label names are used by
 * dev.partita.sql.parse.AstBuilder; keep them in step.
 */
grammar CosmosSql;

program
    : selectQuery EOF
    ;

/* Patch condition text: "FROM c WHERE ..." (no SELECT). */
condition
    : fromClause whereClause? EOF
    ;

selectQuery
    : selectClause fromClause? whereClause? groupByClause? orderByClause? offsetLimitClause?
    ;

selectClause
    : SELECT DISTINCT? topSpec? selection
    ;

topSpec
    : TOP countValue
    ;

countValue
    : NUMBER
    | PARAM
    ;

selection
    : STAR                                  # selectStar
    | VALUE scalarExpr                      # selectValue
    | selectItem (COMMA selectItem)*        # selectList
    ;

selectItem
    : scalarExpr (AS? identifier)?
    ;

fromClause
    : FROM fromSource (JOIN fromSource)*
    ;

fromSource
    : identifier IN collection              # fromIn
    | collection (AS? identifier)?          # fromAlias
    ;

collection
    : collectionPrimary pathSegment*
    ;

collectionPrimary
    : identifier                            # collectionName
    | LPAREN selectQuery RPAREN             # collectionSubquery
    ;

pathSegment
    : DOT propertyName                      # pathMember
    | LBRACKET (STRING | NUMBER) RBRACKET   # pathIndex
    ;

whereClause
    : WHERE scalarExpr
    ;

groupByClause
    : GROUP BY scalarExpr (COMMA scalarExpr)*
    ;

orderByClause
    : ORDER BY RANK orderItem (COMMA orderItem)*        # orderByRank
    | ORDER BY orderItem (COMMA orderItem)*              # orderByItems
    ;

orderItem
    : scalarExpr (ASC | DESC)?
    ;

offsetLimitClause
    : OFFSET countValue LIMIT countValue
    ;

/* ---------------------------------------------------------------- expressions */

scalarExpr
    : conditionalExpr (COALESCE conditionalExpr)*
    ;

conditionalExpr
    : orExpr (QUESTION scalarExpr COLON conditionalExpr)?
    ;

orExpr
    : andExpr (OR andExpr)*
    ;

andExpr
    : predicateExpr (AND predicateExpr)*
    ;

/* Left-factored: choosing among alternatives that each began with concatExpr took a lookahead over the whole
   operand, at every level of nesting (seconds of prediction for an 800-character nested query). */
predicateExpr
    : concatExpr predicateTail?
    ;

predicateTail
    : NOT? BETWEEN concatExpr AND concatExpr                     # betweenPredicate
    | NOT? IN LPAREN scalarExpr (COMMA scalarExpr)* RPAREN       # inPredicate
    | NOT? LIKE concatExpr (ESCAPE concatExpr)?                  # likePredicate
    ;

concatExpr
    : bitOrExpr (CONCAT bitOrExpr)*
    ;

bitOrExpr
    : bitXorExpr (PIPE bitXorExpr)*
    ;

bitXorExpr
    : bitAndExpr (CARET bitAndExpr)*
    ;

bitAndExpr
    : equalityExpr (AMP equalityExpr)*
    ;

equalityExpr
    : relationalExpr ((EQ | NEQ | LTGT) relationalExpr)*
    ;

relationalExpr
    : shiftExpr ((LT | GT | LE | GE) shiftExpr)*
    ;

shiftExpr
    : additiveExpr ((SHL | SHR | USHR) additiveExpr)*
    ;

additiveExpr
    : multiplicativeExpr ((PLUS | MINUS) multiplicativeExpr)*
    ;

multiplicativeExpr
    : unaryExpr ((STAR | SLASH | PERCENT) unaryExpr)*
    ;

unaryExpr
    : (MINUS | PLUS | TILDE | NOT) unaryExpr    # prefixUnary
    | postfixExpr                               # plainUnary
    ;

postfixExpr
    : primaryExpr postfixOp*
    ;

postfixOp
    : DOT propertyName                          # memberOp
    | LBRACKET scalarExpr RBRACKET              # indexOp
    ;

primaryExpr
    : literal                                                           # literalExpr
    | PARAM                                                             # paramExpr
    | UDF DOT identifier LPAREN arguments? RPAREN                        # udfCallExpr
    | functionName LPAREN selectQuery RPAREN                             # subqueryFunctionExpr
    | functionName LPAREN arguments? RPAREN                              # callExpr
    | identifier                                                        # identifierExpr
    | LBRACKET arguments? RBRACKET                                      # arrayExpr
    | LBRACE (objectProperty (COMMA objectProperty)*)? RBRACE           # objectExpr
    | LPAREN selectQuery RPAREN                                         # scalarSubqueryExpr
    | LPAREN scalarExpr RPAREN                                          # parenExpr
    | EXISTS LPAREN selectQuery RPAREN                                  # existsExpr
    | ARRAY LPAREN selectQuery RPAREN                                   # arraySubqueryExpr
    ;

arguments
    : scalarExpr (COMMA scalarExpr)*
    ;

functionName
    : identifier
    | LEFT
    | RIGHT
    ;

objectProperty
    : (STRING | identifier | keyword) COLON scalarExpr
    ;

literal
    : NUMBER
    | STRING
    | TRUE
    | FALSE
    | NULL
    | UNDEFINED
    ;

propertyName
    : identifier
    ;

identifier
    : IDENTIFIER
    ;

keyword
    : AND | ARRAY | AS | ASC | BETWEEN | BY | DESC | DISTINCT | ESCAPE | EXISTS | FROM | GROUP | IN
    | JOIN | LEFT | LIKE | LIMIT | NOT | OFFSET | OR | ORDER | RANK | RIGHT | SELECT | TOP | UDF
    | VALUE | WHERE | TRUE | FALSE | NULL | UNDEFINED
    ;

/* ---------------------------------------------------------------- lexer */

// literals: lower-case only
TRUE      : 'true';
FALSE     : 'false';
NULL      : 'null';
UNDEFINED : 'undefined';
UDF       : 'udf';

// keywords: case-insensitive
AND      : A N D;
ARRAY    : A R R A Y;
AS       : A S;
ASC      : A S C;
BETWEEN  : B E T W E E N;
BY       : B Y;
DESC     : D E S C;
DISTINCT : D I S T I N C T;
ESCAPE   : E S C A P E;
EXISTS   : E X I S T S;
FROM     : F R O M;
GROUP    : G R O U P;
IN       : I N;
JOIN     : J O I N;
LEFT     : L E F T;
LIKE     : L I K E;
LIMIT    : L I M I T;
NOT      : N O T;
OFFSET   : O F F S E T;
OR       : O R;
ORDER    : O R D E R;
RANK     : R A N K;
RIGHT    : R I G H T;
SELECT   : S E L E C T;
TOP      : T O P;
VALUE    : V A L U E;
WHERE    : W H E R E;

COALESCE : '??';
QUESTION : '?';
COLON    : ':';
COMMA    : ',';
DOT      : '.';
LPAREN   : '(';
RPAREN   : ')';
LBRACKET : '[';
RBRACKET : ']';
LBRACE   : '{';
RBRACE   : '}';
CONCAT   : '||';
PIPE     : '|';
CARET    : '^';
AMP      : '&';
EQ       : '=';
NEQ      : '!=';
LTGT     : '<>';
LE       : '<=';
GE       : '>=';
SHL      : '<<';
USHR     : '>>>';
SHR      : '>>';
LT       : '<';
GT       : '>';
PLUS     : '+';
MINUS    : '-';
STAR     : '*';
SLASH    : '/';
PERCENT  : '%';
TILDE    : '~';

NUMBER
    : '0' [xX] HEX_DIGIT+
    | DIGIT+ ('.' DIGIT*)? EXPONENT?
    | '.' DIGIT+ EXPONENT?
    ;

STRING
    : '"' (ESCAPE_SEQ | ~["\\\u0000-\u001F])* '"'
    | '\'' (ESCAPE_SEQ | ~['\\\u0000-\u001F])* '\''
    ;

PARAM
    : '@' IDENT_START IDENT_PART*
    ;

IDENTIFIER
    : IDENT_START IDENT_PART*
    ;

WS
    : [ \t\r\n]+ -> skip
    ;

/* Anything else is reported as a syntax error by the parser's error listener. */
ERROR_CHAR
    : .
    ;

fragment ESCAPE_SEQ : '\\' ( ['"\\/bfnrt] | 'u' HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT );
fragment IDENT_START : [\p{L}_];
fragment IDENT_PART : [\p{L}\p{Nd}_];
fragment DIGIT : [0-9];
fragment HEX_DIGIT : [0-9a-fA-F];
fragment EXPONENT : [eE] [+-]? DIGIT+;

fragment A : [aA]; fragment B : [bB]; fragment C : [cC]; fragment D : [dD]; fragment E : [eE];
fragment F : [fF]; fragment G : [gG]; fragment H : [hH]; fragment I : [iI]; fragment J : [jJ];
fragment K : [kK]; fragment L : [lL]; fragment M : [mM]; fragment N : [nN]; fragment O : [oO];
fragment P : [pP]; fragment Q : [qQ]; fragment R : [rR]; fragment S : [sS]; fragment T : [tT];
fragment U : [uU]; fragment V : [vV]; fragment W : [wW]; fragment X : [xX]; fragment Y : [yY];
fragment Z : [zZ];
