package dev.partita.examples.catalogue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The record's data: 200 seed vehicles (15 makes, the largest about 9%; body style, province and title status each
 * with one value holding about half), expanded to any number of synthetic vehicles by varying numbers only — make,
 * model, body style, title status and province come from the seed. Deterministic for a seed value.
 */
public final class CatalogueGenerator {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] MAKES = {"Toyota", "Ford", "Honda", "Chevrolet", "Nissan", "Hyundai", "Kia", "Mazda",
            "Subaru", "Volkswagen", "BMW", "Mercedes-Benz", "Jeep", "Dodge", "GMC"};
    /** Seed vehicles per make (of 200): the largest is 18, 9%. */
    static final int[] PER_MAKE = {18, 16, 16, 15, 15, 14, 14, 14, 13, 13, 12, 12, 12, 9, 7};
    static final String[][] MODELS = {{"Corolla", "Camry", "RAV4"}, {"F-150", "Escape", "Explorer"},
            {"Civic", "Accord", "CR-V"}, {"Malibu", "Equinox", "Silverado"}, {"Altima", "Rogue", "Sentra"},
            {"Elantra", "Tucson", "Santa Fe"}, {"Sorento", "Sportage", "Forte"}, {"CX-5", "Mazda3", "CX-30"},
            {"Outback", "Forester", "Crosstrek"}, {"Golf", "Jetta", "Tiguan"}, {"X3", "3 Series", "X5"},
            {"C-Class", "GLC", "E-Class"}, {"Wrangler", "Cherokee", "Compass"}, {"Charger", "Durango", "Ram"},
            {"Sierra", "Acadia", "Terrain"}};
    static final String[] BODY_STYLES = {"SUV", "Sedan", "Pickup", "Hatchback", "Coupe", "Minivan", "Wagon"};
    static final String[] PROVINCES = {"ON", "QC", "BC", "AB", "MB", "SK", "NS", "NB"};
    static final String[] TITLE_STATUSES = {"Clean", "Rebuilt", "Salvage", "Lien", "Unknown"};
    static final Instant AUCTIONS_START = Instant.parse("2026-09-01T00:00:00Z");

    private CatalogueGenerator() {
    }

    /** The 200 seed vehicles. */
    public static List<ObjectNode> seeds(long seed) {
        Random r = new Random(seed);
        List<ObjectNode> out = new ArrayList<>();
        for (int m = 0; m < MAKES.length; m++) {
            for (int k = 0; k < PER_MAKE[m]; k++) {
                ObjectNode v = JSON.createObjectNode();
                v.put("id", String.format("%s%03d", MAKES[m].substring(0, 2).toUpperCase(), k));
                v.put("make", MAKES[m]);
                v.put("model", MODELS[m][r.nextInt(MODELS[m].length)]);
                v.put("body_style", half(r, BODY_STYLES));
                v.put("province", half(r, PROVINCES));
                v.put("title_status", half(r, TITLE_STATUSES));
                out.add(v);
            }
        }
        return out;
    }

    /** {@code count} vehicles: the seeds in turn, with their numbers varied. */
    public static List<ObjectNode> vehicles(int count, long seed) {
        List<ObjectNode> seeds = seeds(seed);
        Random r = new Random(seed + 1);
        List<ObjectNode> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ObjectNode v = seeds.get(i % seeds.size()).deepCopy();
            v.put("id", v.get("id").asText() + "-" + (i / seeds.size()));
            v.put("year", 2005 + r.nextInt(21));
            v.put("price", 1_500 + r.nextInt(60_000));
            v.put("condition_grade", Math.round((1 + r.nextDouble() * 4) * 10) / 10.0);
            v.put("odometer_km", r.nextInt(300_000));
            v.put("bid_count", r.nextInt(40));
            v.put("ends_at", AUCTIONS_START.plusSeconds(r.nextInt(60 * 24 * 3600)).toString());
            v.put("lot", r.nextInt(400));
            v.put("seller_rating", Math.round(r.nextDouble() * 50) / 10.0);
            v.put("description", "One owner, service records available, minor wear consistent with age. Tires at "
                    + (20 + r.nextInt(80)) + "% tread; inspected " + r.nextInt(30) + " days ago. Runs and drives. "
                    + "Sold as is, where is; buyer responsible for transport within seven days of the close.");
            v.putArray("photos").add("front.jpg").add("rear.jpg").add("interior-" + r.nextInt(9) + ".jpg");
            out.add(v);
        }
        return out;
    }

    /** The first value about half the time, the others evenly. */
    private static String half(Random r, String[] values) {
        return r.nextBoolean() ? values[0] : values[1 + r.nextInt(values.length - 1)];
    }
}
