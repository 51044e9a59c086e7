package dev.partita.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.partita.core.error.ServiceException;
import dev.partita.core.account.ResourceIds;
import dev.partita.core.account.Users;
import dev.partita.server.Keys;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** protocol.md §2.1: every test vector, produced with the SDK's own signer. */
class MasterKeySignatureTest {
    static final String KEY = Keys.EMULATOR_PRIMARY;
    static final String DATE = "Tue, 01 Jul 2025 12:00:00 GMT";

    @ParameterizedTest(name = "{0} {1} ''{2}''")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "GET   | ''       | ''                            | QzSbwoV5CnTgvUKrsZ56klytA5K6dGp+n27irbmPW7k=",
        "POST  | dbs      | ''                            | zilK6D9Fn3jPNNJAtB4GPgtwRCqFJiHYQb1aGqvcBHY=",
        "GET   | dbs      | dbs/db1                       | eG+8UEkf9i69ytZ3YeR1BJkEeiHm/9vc6eBunmp1ydM=",
        "POST  | colls    | dbs/db1                       | GAmXc87H9HRX6tdnq3PvWhXS7H6Te1MKW6euNxSG+nM=",
        "POST  | docs     | dbs/db1/colls/c1              | m59m0dHQcLRTYTYfeQ3RZYFXWkvwYmVSXiKkMszo+qw=",
        "GET   | docs     | dbs/db1/colls/c1/docs/Item 1  | bSdELgpJPp9i6K6ciM50CKes7r/1wNA0Xka57jKRoPs=",
        "GET   | pkranges | XbQ1AP9A3HU=                  | mdTUdGQ+dsSJvnFydCV6oue0tqp21p2FZVrTPsaZ++k=",
        "GET   | offers   | ab1Z                          | wh9zXvFPa9v2+frJpe1rPsgIALRIPQOafMo+0+oaWaM=",
    })
    void vectors(String verb, String type, String link, String expected) {
        String text = MasterKeySignature.stringToSign(verb, type, link, DATE, null);
        assertThat(MasterKeySignature.sign(KEY, text)).isEqualTo(expected);
    }

    @Test
    void ridLinksAreLowerCasedAndNameLinksKeepTheirCase() {
        assertThat(MasterKeySignature.stringToSign("GET", "pkranges", "XbQ1AP9A3HU=", DATE, null))
                .isEqualTo("get\npkranges\nxbq1ap9a3hu=\ntue, 01 jul 2025 12:00:00 gmt\n\n");
        assertThat(MasterKeySignature.stringToSign("GET", "docs", "dbs/DB/colls/C/docs/X", DATE, null))
                .contains("\ndbs/DB/colls/C/docs/X\n");
    }

    @Test
    void authenticatorAcceptsTheVectorsUrlEncodedAsTheSdkSendsThem() {
        Authenticator auth = authenticator(Instant.parse("2025-07-01T12:05:00Z"));
        for (String[] v : new String[][] {
            {"GET", "", "", "QzSbwoV5CnTgvUKrsZ56klytA5K6dGp+n27irbmPW7k="},
            {"GET", "pkranges", "XbQ1AP9A3HU=", "mdTUdGQ+dsSJvnFydCV6oue0tqp21p2FZVrTPsaZ++k="},
            {"GET", "docs", "dbs/db1/colls/c1/docs/Item 1", "bSdELgpJPp9i6K6ciM50CKes7r/1wNA0Xka57jKRoPs="},
        }) {
            String header = URLEncoder.encode("type=master&ver=1.0&sig=" + v[3], StandardCharsets.UTF_8);
            assertThat(auth.authenticate(v[0], header, DATE, null, v[1], v[2]))
                    .isEqualTo(new Principal.MasterKey(false));
        }
    }

    @Test
    void wrongKeyMalformedHeaderMissingHeaderAndSkewAre401() {
        Authenticator auth = authenticator(Instant.parse("2025-07-01T12:05:00Z"));
        String good = URLEncoder.encode("type=master&ver=1.0&sig=QzSbwoV5CnTgvUKrsZ56klytA5K6dGp+n27irbmPW7k=",
                StandardCharsets.UTF_8);
        String other = URLEncoder.encode("type=master&ver=1.0&sig="
                + MasterKeySignature.sign(Keys.emulator().secondary() .replace('N', 'M'),
                        MasterKeySignature.stringToSign("GET", "", "", DATE, null)), StandardCharsets.UTF_8);
        assertUnauthorized(() -> auth.authenticate("GET", other, DATE, null, "", ""));
        assertUnauthorized(() -> auth.authenticate("GET", "garbage", DATE, null, "", ""));
        assertUnauthorized(() -> auth.authenticate("GET", null, DATE, null, "", ""));
        assertUnauthorized(() -> auth.authenticate("GET", good, null, null, "", ""));
        assertUnauthorized(() -> auth.authenticate("POST", good, DATE, null, "", ""));
        Authenticator late = authenticator(Instant.parse("2025-07-01T12:16:00Z"));
        assertUnauthorized(() -> late.authenticate("GET", good, DATE, null, "", ""));
    }

    @Test
    void aDateAcceptedOnceIsRefusedWhenTheServersClockHasMovedOn() {
        // the parsed x-ms-date is cached; the skew is still judged against the clock of each request
        Instant[] now = {Instant.parse("2025-07-01T12:05:00Z")};
        Clock moving = new Clock() {
            @Override
            public Instant instant() {
                return now[0];
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };
        Authenticator auth = new Authenticator(Keys.emulator(), false, moving, Duration.ofMinutes(15), (Users) null,
                new ResourceTokens(KEY));
        String good = URLEncoder.encode("type=master&ver=1.0&sig=QzSbwoV5CnTgvUKrsZ56klytA5K6dGp+n27irbmPW7k=",
                StandardCharsets.UTF_8);
        assertThat(auth.authenticate("GET", good, DATE, null, "", "")).isEqualTo(new Principal.MasterKey(false));
        now[0] = Instant.parse("2025-07-01T12:16:00Z");
        assertUnauthorized(() -> auth.authenticate("GET", good, DATE, null, "", ""));
        assertUnauthorized(() -> auth.authenticate("GET", good, "Tue, 01 Jul 2025 12:16:00 XYZ", null, "", ""));
    }

    @Test
    void readOnlyKeysAreRecognised() {
        Authenticator auth = authenticator(Instant.parse("2025-07-01T12:00:00Z"));
        String sig = MasterKeySignature.sign(Keys.emulator().readOnlySecondary(),
                MasterKeySignature.stringToSign("GET", "dbs", "dbs/db1", DATE, null));
        String header = URLEncoder.encode("type=master&ver=1.0&sig=" + sig, StandardCharsets.UTF_8);
        assertThat(auth.authenticate("GET", header, DATE, null, "dbs", "dbs/db1"))
                .isEqualTo(new Principal.MasterKey(true));
    }

    @Test
    void resourceTokensVerifyAndRejectTampering() {
        ResourceTokens tokens = new ResourceTokens(KEY);
        String rid = ResourceIds.encode(new byte[16]);
        String token = tokens.mint(rid, 1_900_000_000L);
        String sig = token.substring(token.indexOf("sig=") + 4);
        assertThat(tokens.verify(sig)).isEqualTo(new ResourceTokens.Claims(rid, 1_900_000_000L));
        assertThat(tokens.verify(sig.replace(";1900000000", ";1900000001"))).isNull();
        assertThat(new ResourceTokens(Keys.emulator().secondary()).verify(sig)).isNull();
    }

    @Test
    void theHeaderIsPercentDecodedOnlyAndItsKeysMatchInAnyCase() {
        AuthHeader h = AuthHeader.parse("TYPE%3DMaster%26Ver%3D1.0%26SIG%3Da%2Bb%2F%3D+c");
        assertThat(h).isEqualTo(new AuthHeader("master", "1.0", "a+b/=+c"));
        assertThat(AuthHeader.parse("type=resource&ver=1.0&sig=caf%C3%A9\u00e9"))
                .isEqualTo(new AuthHeader("resource", "1.0", "caf\u00e9\u00e9"));
        assertThat(AuthHeader.parse("type%3Dmaster%26sig%3Dab%2")).isNull();
        assertThat(AuthHeader.parse("type%3Dmaster%26sig%3Dab%zz")).isNull();
        assertThat(AuthHeader.parse("type%3Dmaster%26ver%3D1.0")).isNull();
    }

    private static Authenticator authenticator(Instant now) {
        return new Authenticator(Keys.emulator(), false, Clock.fixed(now, ZoneOffset.UTC), Duration.ofMinutes(15),
                (Users) null, new ResourceTokens(KEY));
    }

    private static void assertUnauthorized(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ServiceException.class, e -> assertThat(e.status())
                .isEqualTo(401));
    }
}
