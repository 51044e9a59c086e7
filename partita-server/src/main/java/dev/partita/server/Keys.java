package dev.partita.server;

import java.util.Base64;
import java.util.Objects;

/**
 * The account keys: two read-write keys and two read-only keys, each the base64 text of the HMAC key. Read-only keys
 * may read (GET, and queries sent as POST) but not write.
 */
public record Keys(String primary, String secondary, String readOnlyPrimary, String readOnlySecondary) {

    /** The Azure Cosmos DB emulator's published key; code written for the emulator works unchanged. */
    public static final String EMULATOR_PRIMARY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    public Keys {
        for (String k : new String[] {primary, secondary, readOnlyPrimary, readOnlySecondary}) {
            Objects.requireNonNull(k, "every key must be set");
            try {
                if (Base64.getDecoder().decode(k).length == 0) {
                    throw new IllegalArgumentException("a key must not be empty");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("every key must be base64 text", e);
            }
        }
    }

    /** The emulator's primary key, and fixed (equally public) secondary and read-only keys. */
    public static Keys emulator() {
        return new Keys(EMULATOR_PRIMARY,
                "NGRqvAqg+bIsFFt+LrXte/8DDQmZER8cuhZci+CrnE+TYLRVoXEeNk4uyoZIvi70voaLiz1IEp1dlOkBJ8AkhQ==",
                "n5Vu+ZeLEhKtJReJ/AEsbDzkBhIx+I1Tac4YyOaB963SmcCiieTkxqR+5WASjNfO2rGoijNcff3aimC+ZDppYw==",
                "1eEq+kWz5OgnH0HlAMN/mwY/oOlLbXyR6ZmPJdiYoRs2c3tEOfnztapJkmeERduH7bmheeBhA25nQ0+K167yKw==");
    }

    @Override
    public String toString() {
        return "Keys[4 keys, not shown]";
    }
}
