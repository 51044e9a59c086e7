package dev.partita.sql;

import static dev.partita.sql.QueryTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The spatial functions beyond the documented samples: edge cases of validity, containment, distance and area. */
class SpatialFunctionsTest {
    private static final String SQUARE = "{'type':'Polygon','coordinates':[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}";
    private static final String HOLED = "{'type':'Polygon','coordinates':[[[0,0],[4,0],[4,4],[0,4],[0,0]],"
            + "[[1,1],[3,1],[3,3],[1,3],[1,1]]]}";

    private static String point(double lon, double lat) {
        return "{'type':'Point','coordinates':[" + lon + "," + lat + "]}";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "ST_WITHIN(" + "{'type':'Point','coordinates':[1,1]}" + ", " + SQUARE + ")                         | [true]",
            "ST_WITHIN(" + "{'type':'Point','coordinates':[3,1]}" + ", " + SQUARE + ")                         | [false]",
            "ST_WITHIN(" + "{'type':'Point','coordinates':[2,2]}" + ", " + HOLED + ")                          | [false]",
            "ST_WITHIN(" + "{'type':'Point','coordinates':[0.5,2]}" + ", " + HOLED + ")                        | [true]",
            "ST_INTERSECTS(" + SQUARE + ", {'type':'LineString','coordinates':[[-1,1],[3,1]]})                  | [true]",
            "ST_INTERSECTS(" + SQUARE + ", {'type':'LineString','coordinates':[[-1,3],[3,3]]})                  | [false]",
            "ST_INTERSECTS(" + SQUARE + ", {'type':'Point','coordinates':[1,1]})                                | [true]",
            "ST_ISVALID({'type':'Point','coordinates':[181,0]})                                                  | [false]",
            "ST_ISVALID({'type':'Polygon','coordinates':[[[0,0],[2,0],[2,2],[0,0]]]})                            | [true]",
            "ST_ISVALID({'type':'Polygon','coordinates':[[[0,0],[2,0],[2,2],[0,2]]]})                            | [false]",
            "ST_ISVALID({'type':'Circle','coordinates':[0,0]})                                                   | [false]",
            "ST_ISVALIDDETAILED({'type':'Point','coordinates':[181,0]}).reason                                   | [\"Longitude values must be between -180 and 180 degrees.\"]",
            "ST_DISTANCE({'type':'Point','coordinates':[1,1]}, " + SQUARE + ")                                  | [0]",
            "ST_DISTANCE('not geojson', " + SQUARE + ")                                                          | []",
            "ST_AREA({'type':'Point','coordinates':[1,1]})                                                       | [0]",
    })
    void evaluates(String expr, String expected) {
        assertThat(run("SELECT VALUE " + expr)).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void distancesFollowTheEllipsoid() {
        // one degree of latitude at the equator is 110,574 m on WGS-84, one of longitude 111,319 m
        assertThat(number("ST_DISTANCE(" + point(0, 0) + ", " + point(0, 1) + ")")).isCloseTo(110_574.4, within(0.5));
        assertThat(number("ST_DISTANCE(" + point(0, 0) + ", " + point(1, 0) + ")")).isCloseTo(111_319.5, within(0.5));
    }

    @org.junit.jupiter.api.Test
    void aHoleIsNotPartOfTheArea() {
        double outer = number("ST_AREA({'type':'Polygon','coordinates':[[[0,0],[4,0],[4,4],[0,4],[0,0]]]})");
        double inner = number("ST_AREA({'type':'Polygon','coordinates':[[[1,1],[3,1],[3,3],[1,3],[1,1]]]})");
        assertThat(number("ST_AREA(" + HOLED + ")")).isCloseTo(outer - inner, within(1.0));
    }

    private static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }

    private static double number(String expr) {
        String rows = run("SELECT VALUE " + expr);
        return Double.parseDouble(rows.substring(1, rows.length() - 1));
    }
}
