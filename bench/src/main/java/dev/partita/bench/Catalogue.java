package dev.partita.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.partita.core.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Vehicles shaped like the auction catalogue of reference-systems.md §3 (seed 003): 15 makes with the largest about
 * 9%, body style, province and title status each with one value holding about half the data, about 0.8 KB each.
 * Deterministic for a seed.
 */
public final class Catalogue {
    /** Makes and their weights (percent); the largest is 9%. */
    static final String[] MAKES = {"Toyota", "Ford", "Honda", "Chevrolet", "Nissan", "Hyundai", "Kia", "Mazda",
            "Subaru", "Volkswagen", "BMW", "Mercedes-Benz", "Jeep", "Dodge", "GMC"};
    static final int[] MAKE_WEIGHTS = {9, 8, 8, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 5, 5};
    static final String[] MODELS = {"Corolla", "Camry", "F-150", "Escape", "Civic", "Accord", "Malibu", "Equinox",
            "Altima", "Rogue", "Elantra", "Tucson", "Sorento", "CX-5", "Outback", "Golf", "X3", "C-Class", "Wrangler",
            "Charger", "Sierra"};
    static final String[] BODY_STYLES = {"Sedan", "SUV", "Pickup", "Hatchback", "Coupe", "Minivan", "Wagon"};
    static final String[] PROVINCES = {"ON", "QC", "BC", "AB", "MB", "SK", "NS", "NB"};
    static final String[] TITLE_STATUSES = {"Clean", "Rebuilt", "Salvage", "Lien", "Unknown"};
    static final Instant START = Instant.parse("2026-09-01T00:00:00Z");

    private Catalogue() {
    }

    public static List<ObjectNode> vehicles(int count, long seed) {
        Random r = new Random(seed);
        List<ObjectNode> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ObjectNode v = Json.object();
            v.put("id", String.format("v%06d", i));
            v.put("make", MAKES[weighted(r, MAKE_WEIGHTS)]);
            v.put("model", MODELS[r.nextInt(MODELS.length)]);
            v.put("year", 2005 + r.nextInt(21));
            v.put("body_style", half(r, BODY_STYLES));
            v.put("province", half(r, PROVINCES));
            v.put("title_status", half(r, TITLE_STATUSES));
            v.put("price", 1_500 + r.nextInt(60_000));
            v.put("condition_grade", Math.round((1 + r.nextDouble() * 4) * 10) / 10.0);
            v.put("odometer_km", r.nextInt(300_000));
            v.put("bid_count", r.nextInt(40));
            v.put("ends_at", START.plusSeconds(r.nextInt(60 * 24 * 3600)).toString());
            v.put("colour", new String[] {"black", "white", "silver", "red", "blue", "grey"}[r.nextInt(6)]);
            v.put("vin", vin(r));
            v.put("seller", "seller-" + r.nextInt(2_000));
            v.put("location", "Lot " + r.nextInt(400) + ", Yard " + r.nextInt(30));
            v.put("description", "One owner, service records available, minor wear consistent with age. Tires at "
                    + (20 + r.nextInt(80)) + "% tread; inspected " + r.nextInt(30) + " days ago. Keys: "
                    + (1 + r.nextInt(2)) + ". Announcements: none. Runs and drives. Sold as is, where is; buyer "
                    + "responsible for transport within seven days of the auction closing.");
            v.putArray("features").add("bluetooth").add(r.nextBoolean() ? "sunroof" : "heated seats")
                    .add(r.nextBoolean() ? "backup camera" : "navigation");
            out.add(v);
        }
        return out;
    }

    private static int weighted(Random r, int[] weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int x = r.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            x -= weights[i];
            if (x < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    /** The first value about half the time, the rest evenly. */
    private static String half(Random r, String[] values) {
        return r.nextBoolean() ? values[0] : values[1 + r.nextInt(values.length - 1)];
    }

    private static String vin(Random r) {
        String chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
        StringBuilder b = new StringBuilder(17);
        for (int i = 0; i < 17; i++) {
            b.append(chars.charAt(r.nextInt(chars.length())));
        }
        return b.toString();
    }
}
