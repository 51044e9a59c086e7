package dev.partita.sql.functions;

import static dev.partita.sql.functions.Builtins.add;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.sql.value.Num;
import java.util.List;

/**
 * Spatial functions over GeoJSON on the WGS-84 geography model: ST_DISTANCE (metres), ST_AREA (square metres),
 * ST_WITHIN, ST_INTERSECTS, ST_ISVALID, ST_ISVALIDDETAILED. Arguments that are not valid GeoJSON give undefined.
 *
 * <p>Distance is Vincenty's inverse on the ellipsoid and area is the spherical excess on the authalic sphere (an
 * equal-area mapping of the ellipsoid). The service's own algorithms are not published: these agree with its
 * documented results to about 1e-7 relative. Containment and intersection treat edges as straight lines in
 * longitude/latitude, which matches the service for the small shapes queries use but not for edges spanning many
 * degrees, where the service follows great circles.
 */
final class SpatialFunctions {
    private static final double A = 6_378_137.0;
    private static final double F = 1 / 298.257223563;
    private static final double B = (1 - F) * A;
    private static final double E2 = F * (2 - F);
    private static final double E = Math.sqrt(E2);
    private static final double QP = authalicQ(Math.PI / 2);
    private static final double AUTHALIC_RADIUS = A * Math.sqrt(QP / 2);

    private SpatialFunctions() {
    }

    static void register() {
        add("ST_DISTANCE", 2, 2, true, (a, e) -> {
            Geometry g1 = Geometry.parse(a[0]);
            Geometry g2 = Geometry.parse(a[1]);
            if (g1 == null || g2 == null || g1.invalidReason() != null || g2.invalidReason() != null) {
                return null;
            }
            return Num.of(distance(g1, g2, new Steps(e)));
        });
        add("ST_AREA", 1, 1, true, (a, e) -> {
            Geometry g = Geometry.parse(a[0]);
            if (g == null || g.invalidReason() != null) {
                return null;
            }
            double area = 0;
            for (double[][][] polygon : g.polygons()) {
                area += polygonArea(polygon);
            }
            return Num.of(area);
        });
        add("ST_WITHIN", 2, 2, true, (a, e) -> {
            Geometry inner = Geometry.parse(a[0]);
            Geometry outer = Geometry.parse(a[1]);
            if (inner == null || outer == null) {
                return null;
            }
            return JsonNodeFactory.instance.booleanNode(within(inner, outer, new Steps(e)));
        });
        add("ST_INTERSECTS", 2, 2, true, (a, e) -> {
            Geometry g1 = Geometry.parse(a[0]);
            Geometry g2 = Geometry.parse(a[1]);
            if (g1 == null || g2 == null) {
                return null;
            }
            return JsonNodeFactory.instance.booleanNode(intersects(g1, g2, new Steps(e)));
        });
        add("ST_ISVALID", 1, 1, true, (a, e) -> {
            Geometry g = Geometry.parse(a[0]);
            return JsonNodeFactory.instance.booleanNode(g != null && g.invalidReason() == null);
        });
        add("ST_ISVALIDDETAILED", 1, 1, true, (a, e) -> {
            Geometry g = Geometry.parse(a[0]);
            String reason = g == null ? "The input is not a valid GeoJSON geometry." : g.invalidReason();
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            out.put("valid", reason == null);
            if (reason != null) {
                out.put("reason", reason);
            }
            return out;
        });
    }

    // ---- distance

    private static double distance(Geometry g1, Geometry g2, Steps steps) {
        if (intersects(g1, g2, steps)) {
            return 0;
        }
        double best = Double.MAX_VALUE;
        for (double[] p : g1.points()) {
            steps.spend(g2.points().size() * 64L); // a Vincenty solution is some 64 times a cross product
            for (double[] q : g2.points()) {
                best = Math.min(best, vincenty(p[0], p[1], q[0], q[1]));
            }
        }
        return best;
    }

    /** Vincenty's inverse formula (metres); falls back to the authalic sphere where it does not converge. */
    static double vincenty(double lon1, double lat1, double lon2, double lat2) {
        double l = Math.toRadians(lon2 - lon1);
        double u1 = Math.atan((1 - F) * Math.tan(Math.toRadians(lat1)));
        double u2 = Math.atan((1 - F) * Math.tan(Math.toRadians(lat2)));
        double sinU1 = Math.sin(u1);
        double cosU1 = Math.cos(u1);
        double sinU2 = Math.sin(u2);
        double cosU2 = Math.cos(u2);
        double lambda = l;
        for (int i = 0; i < 200; i++) {
            double sinL = Math.sin(lambda);
            double cosL = Math.cos(lambda);
            double sinSigma = Math.hypot(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL);
            if (sinSigma == 0) {
                return 0;
            }
            double cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
            double sigma = Math.atan2(sinSigma, cosSigma);
            double sinAlpha = cosU1 * cosU2 * sinL / sinSigma;
            double cos2Alpha = 1 - sinAlpha * sinAlpha;
            double cos2SigmaM = cos2Alpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cos2Alpha;
            double c = F / 16 * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
            double previous = lambda;
            lambda = l + (1 - c) * F * sinAlpha
                    * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
            if (Math.abs(lambda - previous) < 1e-13) {
                double u2sq = cos2Alpha * (A * A - B * B) / (B * B);
                double bigA = 1 + u2sq / 16384 * (4096 + u2sq * (-768 + u2sq * (320 - 175 * u2sq)));
                double bigB = u2sq / 1024 * (256 + u2sq * (-128 + u2sq * (74 - 47 * u2sq)));
                double deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM
                        * cos2SigmaM) - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
                        * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
                return B * bigA * (sigma - deltaSigma);
            }
        }
        return haversine(lon1, lat1, lon2, lat2);
    }

    private static double haversine(double lon1, double lat1, double lon2, double lat2) {
        double p1 = Math.toRadians(lat1);
        double p2 = Math.toRadians(lat2);
        double h = Math.pow(Math.sin((p2 - p1) / 2), 2)
                + Math.cos(p1) * Math.cos(p2) * Math.pow(Math.sin(Math.toRadians(lon2 - lon1) / 2), 2);
        return 2 * AUTHALIC_RADIUS * Math.asin(Math.sqrt(Math.min(1, h)));
    }

    // ---- area

    private static double authalicQ(double phi) {
        double s = Math.sin(phi);
        return (1 - E2) * (s / (1 - E2 * s * s) - 1 / (2 * E) * Math.log((1 - E * s) / (1 + E * s)));
    }

    private static double authalicLatitude(double phi) {
        return Math.asin(authalicQ(phi) / QP);
    }

    /** Outer ring minus holes, each by its spherical excess on the authalic sphere. */
    private static double polygonArea(double[][][] rings) {
        double area = ringArea(rings[0]);
        for (int i = 1; i < rings.length; i++) {
            area -= ringArea(rings[i]);
        }
        return area;
    }

    private static double ringArea(double[][] ring) {
        double total = 0;
        for (int i = 0; i + 1 < ring.length; i++) {
            double l1 = Math.toRadians(ring[i][0]);
            double l2 = Math.toRadians(ring[i + 1][0]);
            double t1 = Math.tan(authalicLatitude(Math.toRadians(ring[i][1])) / 2);
            double t2 = Math.tan(authalicLatitude(Math.toRadians(ring[i + 1][1])) / 2);
            total += 2 * Math.atan2(Math.tan((l2 - l1) / 2) * (t1 + t2), 1 + t1 * t2);
        }
        return Math.abs(total) * AUTHALIC_RADIUS * AUTHALIC_RADIUS;
    }

    // ---- containment and intersection (planar in longitude/latitude)

    private static boolean within(Geometry inner, Geometry outer, Steps steps) {
        if (outer.polygons().isEmpty()) {
            return false;
        }
        for (double[] p : inner.points()) {
            steps.spend(outer.points().size());
            if (!insideAny(p, outer)) {
                return false;
            }
        }
        return true;
    }

    private static boolean insideAny(double[] p, Geometry g) {
        for (double[][][] polygon : g.polygons()) {
            if (inside(p, polygon)) {
                return true;
            }
        }
        return false;
    }

    private static boolean inside(double[] p, double[][][] polygon) {
        if (!inRing(p, polygon[0])) {
            return false;
        }
        for (int i = 1; i < polygon.length; i++) {
            if (inRing(p, polygon[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean inRing(double[] p, double[][] ring) {
        boolean in = false;
        for (int i = 0, j = ring.length - 1; i < ring.length; j = i++) {
            double xi = ring[i][0];
            double yi = ring[i][1];
            double xj = ring[j][0];
            double yj = ring[j][1];
            if ((yi > p[1]) != (yj > p[1]) && p[0] < (xj - xi) * (p[1] - yi) / (yj - yi) + xi) {
                in = !in;
            }
        }
        return in;
    }

    private static boolean intersects(Geometry g1, Geometry g2, Steps steps) {
        for (double[] p : g1.points()) {
            steps.spend(2L * g2.points().size());
            if (insideAny(p, g2) || onAnyPoint(p, g2)) {
                return true;
            }
        }
        for (double[] p : g2.points()) {
            steps.spend(g1.points().size());
            if (insideAny(p, g1)) {
                return true;
            }
        }
        List<double[][]> others = g2.segments();
        for (double[][] s : g1.segments()) {
            steps.spend(others.size());
            for (double[][] t : others) {
                if (segmentsCross(s[0], s[1], t[0], t[1])) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean onAnyPoint(double[] p, Geometry g) {
        for (double[] q : g.points()) {
            if (q[0] == p[0] && q[1] == p[1]) {
                return true;
            }
        }
        return false;
    }

    private static boolean segmentsCross(double[] p1, double[] p2, double[] q1, double[] q2) {
        double d1 = cross(q1, q2, p1);
        double d2 = cross(q1, q2, p2);
        double d3 = cross(p1, p2, q1);
        double d4 = cross(p1, p2, q2);
        if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
            return true;
        }
        return d1 == 0 && onSegment(q1, q2, p1) || d2 == 0 && onSegment(q1, q2, p2)
                || d3 == 0 && onSegment(p1, p2, q1) || d4 == 0 && onSegment(p1, p2, q2);
    }

    private static double cross(double[] a, double[] b, double[] c) {
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    }

    private static boolean onSegment(double[] a, double[] b, double[] p) {
        return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0])
                && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
    }
}
