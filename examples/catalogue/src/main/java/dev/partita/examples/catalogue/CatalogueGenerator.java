package dev.partita.examples.catalogue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The record's data: 200 seed vehicles (15 makes, the largest about 9%; body style, province and title status each
 * with one value holding about half), expanded to any number of synthetic vehicles by varying numbers only — make,
 * model, body style, title status and province come from the seed. Deterministic for a seed value.
 *
 * <p>A vehicle is the record's document (82 MB over 100,000 documents: ~0.8 KB stored, system properties included):
 * the listing's specification, its auction (ending time, bids, lot, reserve), its seller, four features, four photo
 * ids and the searchable text — 35 scalar values, so that "index everything" writes ~3.5 times the terms of the tuned
 * policy's nine paths (the shape {@code CostModelCalibrationTest} prices).
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
    static final String[] TRIMS = {"Base", "LX", "SE", "XLT", "Sport", "Limited", "Touring"};
    static final String[] COLOURS = {"Black", "White", "Silver", "Grey", "Red", "Blue"};
    static final String[] ENGINES = {"1.5L I4", "2.0L I4", "2.5L I4", "3.5L V6", "5.0L V8", "Electric"};
    static final String[] DRIVETRAINS = {"FWD", "RWD", "AWD", "4WD"};
    static final String[] FUELS = {"Gasoline", "Diesel", "Hybrid", "Electric"};
    static final String[] SELLERS = {"North Auto Sales", "Fleet Remarketing", "Prairie Motors", "Coastal Leasing",
            "Private seller"};
    static final String[] CITIES = {"Toronto", "Montreal", "Vancouver", "Calgary", "Winnipeg", "Halifax"};
    static final String[] FEATURES = {"Tow package", "Backup camera", "Bluetooth", "Heated seats", "Sunroof",
            "Navigation", "Remote start"};
    static final String VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
    static final Instant AUCTIONS_START = Instant.parse("2026-09-01T00:00:00Z");

    private CatalogueGenerator() {
    }

    /** The 200 seed vehicles: everything the expansion keeps (strings, flags, lists), numbers to be varied. */
    public static List<ObjectNode> seeds(long seed) {
        Random r = new Random(seed);
        List<ObjectNode> out = new ArrayList<>();
        for (int m = 0; m < MAKES.length; m++) {
            for (int k = 0; k < PER_MAKE[m]; k++) {
                ObjectNode v = JSON.createObjectNode();
                v.put("id", String.format("%s%03d", MAKES[m].substring(0, 2).toUpperCase(), k));
                v.put("make", MAKES[m]);
                v.put("model", MODELS[m][r.nextInt(MODELS[m].length)]);
                v.put("year", 0);
                v.put("trim", pick(r, TRIMS));
                v.put("body_style", half(r, BODY_STYLES));
                v.put("province", half(r, PROVINCES));
                v.put("title_status", half(r, TITLE_STATUSES));
                v.put("price", 0);
                v.put("odometer_km", 0);
                v.put("condition_grade", 0.0);
                v.put("colour", pick(r, COLOURS));
                v.put("vin", vin(r));
                v.put("engine", pick(r, ENGINES));
                v.put("transmission", r.nextInt(5) == 0 ? "Manual" : "Automatic");
                v.put("drivetrain", pick(r, DRIVETRAINS));
                v.put("fuel", pick(r, FUELS));
                v.put("seats", 2 + r.nextInt(7));
                v.put("doors", 2 + r.nextInt(4));
                v.put("ends_at", "");
                v.put("bid_count", 0);
                ObjectNode auction = v.putObject("auction");
                auction.put("lot", 0);
                auction.put("reserve_met", r.nextBoolean());
                ObjectNode seller = v.putObject("seller");
                seller.put("name", pick(r, SELLERS));
                seller.put("city", pick(r, CITIES));
                seller.put("rating", Math.round((3 + r.nextDouble() * 2) * 10) / 10.0);
                ArrayNode features = v.putArray("features");
                for (int f = 0, first = r.nextInt(FEATURES.length); f < 4; f++) {
                    features.add(FEATURES[(first + f) % FEATURES.length]);
                }
                v.putArray("photos");
                v.put("search_text", searchText(v));
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
            v.put("odometer_km", r.nextInt(300_000));
            v.put("condition_grade", Math.round((1 + r.nextDouble() * 4) * 10) / 10.0);
            v.put("ends_at", AUCTIONS_START.plusSeconds(r.nextInt(60 * 24 * 3600)).toString());
            v.put("bid_count", r.nextInt(40));
            ((ObjectNode) v.get("auction")).put("lot", r.nextInt(400));
            ArrayNode photos = (ArrayNode) v.get("photos");
            int firstPhoto = r.nextInt(1_000_000);
            for (int p = 0; p < 4; p++) {
                photos.add(firstPhoto + p);
            }
            out.add(v);
        }
        return out;
    }

    /** The searchable text: the seed's words a visitor types, lower-cased. */
    private static String searchText(ObjectNode v) {
        StringBuilder b = new StringBuilder();
        for (String field : List.of("make", "model", "trim", "body_style", "colour", "engine")) {
            b.append(v.get(field).asText()).append(' ');
        }
        b.append(v.get("seller").get("city").asText());
        return b.toString().toLowerCase(Locale.ROOT);
    }

    private static String pick(Random r, String[] values) {
        return values[r.nextInt(values.length)];
    }

    private static String vin(Random r) {
        StringBuilder b = new StringBuilder(17);
        for (int i = 0; i < 17; i++) {
            b.append(VIN_CHARS.charAt(r.nextInt(VIN_CHARS.length())));
        }
        return b.toString();
    }

    /** The first value about half the time, the others evenly. */
    private static String half(Random r, String[] values) {
        return r.nextBoolean() ? values[0] : values[1 + r.nextInt(values.length - 1)];
    }
}
