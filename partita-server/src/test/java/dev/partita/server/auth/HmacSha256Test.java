package dev.partita.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Our HMAC-SHA256 against RFC 4231's test vectors and the JDK's {@code Mac}. */
class HmacSha256Test {
    @Test
    void rfc4231Vectors() {
        // test case 2: a short key; test case 6: a key longer than the block, hashed first
        assertThat(hex(new HmacSha256("Jefe".getBytes(StandardCharsets.US_ASCII))
                .mac("what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        byte[] longKey = new byte[131];
        Arrays.fill(longKey, (byte) 0xaa);
        assertThat(hex(new HmacSha256(longKey).mac(
                "Test Using Larger Than Block-Size Key - Hash Key First".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }

    @Property(tries = 300)
    void equalsTheJdksMac(@ForAll @Size(max = 200) byte[] key, @ForAll @Size(max = 300) byte[] message)
            throws Exception {
        HmacSha256 ours = new HmacSha256(key);
        byte[] expected = jdk(key, message);
        assertThat(ours.mac(message)).isEqualTo(expected);
        assertThat(ours.mac(message)).as("the kept states are not consumed").isEqualTo(expected);
    }

    private static byte[] jdk(byte[] key, byte[] message) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        // the JDK refuses an empty key spec; HMAC pads it like any short key, so one zero byte gives the same MAC
        mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
        return mac.doFinal(message);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
