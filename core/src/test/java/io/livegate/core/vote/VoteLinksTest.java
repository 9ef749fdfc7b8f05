package io.livegate.core.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class VoteLinksTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final Instant EXPIRES = NOW.plus(Duration.ofHours(24));

  private final VoteLinks links = new VoteLinks(secret(1));
  private final VoteLinks.Ballot ballot =
      new VoteLinks.Ballot(42, "platform-lead@example.com", Vote.Choice.APPROVE, EXPIRES);

  @Test
  void aTokenChecksBackToItsBallotUntilItExpires() {
    String token = links.token(ballot);

    assertThat(links.check(token, NOW)).isEqualTo(new VoteLinks.Check.Valid(ballot));
    assertThat(links.check(token, EXPIRES)).isEqualTo(new VoteLinks.Check.Valid(ballot));
  }

  @Test
  void aTokenPastItsExpiryIsExpiredAndStillSaysWhatItWasFor() {
    String token = links.token(ballot);

    assertThat(links.check(token, EXPIRES.plusSeconds(1)))
        .isEqualTo(new VoteLinks.Check.Expired(ballot));
  }

  @Test
  void aTokenSignedWithAnotherSecretIsForged() {
    String token = new VoteLinks(secret(2)).token(ballot);

    assertThat(links.check(token, NOW)).isInstanceOf(VoteLinks.Check.Forged.class);
  }

  @Test
  void movingATokenToAnotherVoterExecutionChoiceOrExpiryIsForged() {
    String signature = links.token(ballot).split("\\.")[1];

    for (String payload :
        new String[] {
          "42\nsre-oncall@example.com\napprove\n" + EXPIRES.getEpochSecond(),
          "43\nplatform-lead@example.com\napprove\n" + EXPIRES.getEpochSecond(),
          "42\nplatform-lead@example.com\nreject\n" + EXPIRES.getEpochSecond(),
          "42\nplatform-lead@example.com\napprove\n" + EXPIRES.plusSeconds(3600).getEpochSecond()
        }) {
      String tampered = encode(payload) + "." + signature;
      assertThat(links.check(tampered, NOW)).as(payload).isInstanceOf(VoteLinks.Check.Forged.class);
    }
  }

  @Test
  void aTamperedSignatureIsForged() {
    String token = links.token(ballot);
    char last = token.charAt(token.length() - 1);
    String flipped = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');

    assertThat(links.check(flipped, NOW)).isInstanceOf(VoteLinks.Check.Forged.class);
  }

  @Test
  void malformedTokensAreForgedAndNeverThrow() {
    String token = links.token(ballot);
    for (String malformed :
        new String[] {
          null,
          "",
          ".",
          "no-dot-at-all",
          "." + token.split("\\.")[1],
          token + ".extra",
          "!!!not-base64!!!." + token.split("\\.")[1],
          token.split("\\.")[0] + ".***"
        }) {
      assertThat(links.check(malformed, NOW))
          .as(String.valueOf(malformed))
          .isInstanceOf(VoteLinks.Check.Forged.class);
    }
  }

  @Test
  void aValidSignatureOverAPayloadOfTheWrongShapeIsForged() {
    // Signed with the right secret but not a ballot: three fields, or a non-numeric execution.
    for (String payload :
        new String[] {"42\nvoter\napprove", "x\nvoter\napprove\n1", "42\nvoter\nmaybe\n1"}) {
      String encoded = encode(payload);
      String forgedWithTheSecret = encoded + "." + signatureOf(encoded);
      assertThat(links.check(forgedWithTheSecret, NOW))
          .as(payload)
          .isInstanceOf(VoteLinks.Check.Forged.class);
    }
  }

  @Test
  void aShortSecretIsRefused() {
    assertThatThrownBy(() -> new VoteLinks(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes");
  }

  private static String encode(String payload) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(payload.getBytes(StandardCharsets.UTF_8));
  }

  /** The HMAC that {@link #links} puts on {@code encodedPayload}: what only the secret can make. */
  private static String signatureOf(String encodedPayload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret(1), "HmacSHA256"));
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(encodedPayload.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] secret(int fill) {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) fill);
    return secret;
  }
}
