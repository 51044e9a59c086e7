package dev.partita.sql.functions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A GeoJSON geometry (Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon) as longitude/latitude
 * positions, with the validity rules of the service's geography model.
 *
 * @param points   every position (vertices of lines and rings included)
 * @param lines    line strings and polygon rings, each a list of positions
 * @param polygons polygons as rings, the first ring the outer one
 */
record Geometry(List<double[]> points, List<double[][]> lines, List<double[][][]> polygons, String invalidReason) {

    /** The geometry, or null when the value is not GeoJSON of a supported type. */
    static Geometry parse(JsonNode n) {
        if (n == null || !n.isObject() || !n.path("type").isTextual() || !n.path("coordinates").isArray()) {
            return null;
        }
        JsonNode c = n.get("coordinates");
        Builder b = new Builder();
        boolean shaped = switch (n.get("type").textValue()) {
            case "Point" -> b.point(c);
            case "MultiPoint" -> each(c, b::point);
            case "LineString" -> b.line(c);
            case "MultiLineString" -> each(c, b::line);
            case "Polygon" -> b.polygon(c);
            case "MultiPolygon" -> each(c, b::polygon);
            default -> false;
        };
        return shaped ? new Geometry(b.points, b.lines, b.polygons, b.reason) : null;
    }

    /** Line and ring segments as pairs of positions. */
    List<double[][]> segments() {
        List<double[][]> out = new ArrayList<>();
        for (double[][] line : lines) {
            for (int i = 0; i + 1 < line.length; i++) {
                out.add(new double[][] {line[i], line[i + 1]});
            }
        }
        return out;
    }

    private interface Part {
        boolean add(JsonNode n);
    }

    private static boolean each(JsonNode array, Part part) {
        for (JsonNode element : array) {
            if (!part.add(element)) {
                return false;
            }
        }
        return true;
    }

    private static final class Builder {
        final List<double[]> points = new ArrayList<>();
        final List<double[][]> lines = new ArrayList<>();
        final List<double[][][]> polygons = new ArrayList<>();
        String reason;

        boolean point(JsonNode n) {
            double[] p = position(n);
            if (p == null) {
                return false;
            }
            points.add(p);
            return true;
        }

        boolean line(JsonNode n) {
            double[][] line = positions(n);
            if (line == null) {
                return false;
            }
            if (line.length < 2) {
                invalid("The LineString input is not valid because it does not have enough points. "
                        + "A LineString must contain at least two points.");
            }
            lines.add(line);
            return true;
        }

        boolean polygon(JsonNode n) {
            if (!n.isArray() || n.isEmpty()) {
                return false;
            }
            double[][][] rings = new double[n.size()][][];
            for (int i = 0; i < n.size(); i++) {
                double[][] ring = positions(n.get(i));
                if (ring == null) {
                    return false;
                }
                if (ring.length < 4) {
                    invalid("The Polygon input is not valid because the ring number " + (i + 1)
                            + " does not have enough points. Each ring of a polygon must contain at least four points.");
                } else if (ring[0][0] != ring[ring.length - 1][0] || ring[0][1] != ring[ring.length - 1][1]) {
                    invalid("The Polygon input is not valid because the start and end points of the ring number "
                            + (i + 1) + " are not the same. Each ring of a polygon must have the same start and end "
                            + "points.");
                }
                rings[i] = ring;
                lines.add(ring);
            }
            polygons.add(rings);
            return true;
        }

        private double[][] positions(JsonNode n) {
            if (!n.isArray()) {
                return null;
            }
            double[][] out = new double[n.size()][];
            for (int i = 0; i < n.size(); i++) {
                out[i] = position(n.get(i));
                if (out[i] == null) {
                    return null;
                }
                points.add(out[i]);
            }
            return out;
        }

        private double[] position(JsonNode n) {
            if (!n.isArray() || n.size() < 2 || n.size() > 3 || !n.get(0).isNumber() || !n.get(1).isNumber()) {
                return null;
            }
            double lon = n.get(0).doubleValue();
            double lat = n.get(1).doubleValue();
            if (lat < -90 || lat > 90) {
                invalid("Latitude values must be between -90 and 90 degrees.");
            } else if (lon < -180 || lon > 180) {
                invalid("Longitude values must be between -180 and 180 degrees.");
            }
            return new double[] {lon, lat};
        }

        private void invalid(String why) {
            if (reason == null) {
                reason = why;
            }
        }
    }
}
