package io.livegate.core.vote;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed, expiring, per-voter vote links. A token names the execution, the voter, the choice and
 * the expiry, and carries an HMAC-SHA256 over them with the installation's secret, so it cannot be
 * forged or moved to another voter, execution or choice. Checking is constant-time.
 */
public final class VoteLinks {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final byte[] secret;

  public VoteLinks(byte[] secret) {
    if (secret.length < 32) {
      throw new IllegalArgumentException("a vote-link secret needs at least 32 bytes");
    }
    this.secret = secret.clone();
  }

  /** What a token says, once its signature holds. */
  public record Ballot(long executionId, String voter, Vote.Choice choice, Instant expires) {}

  /** The outcome of checking a token. */
  public sealed interface Check {
    record Valid(Ballot ballot) implements Check {}

    record Forged() implements Check {}

    record Expired(Ballot ballot) implements Check {}
  }

  public String token(Ballot ballot) {
    String payload =
        ENCODER.encodeToString(
            (ballot.executionId()
                    + "\n"
                    + ballot.voter()
                    + "\n"
                    + ballot.choice().id()
                    + "\n"
                    + ballot.expires().getEpochSecond())
                .getBytes(StandardCharsets.UTF_8));
    return payload + "." + ENCODER.encodeToString(mac(payload));
  }

  /** The link that opens {@link VoteDesk}'s confirm page for the ballot. */
  public String link(String baseUrl, Ballot ballot) {
    return baseUrl
        + VoteDesk.PATH
        + "?"
        + VoteDesk.TOKEN_PARAMETER
        + "="
        + URLEncoder.encode(token(ballot), StandardCharsets.UTF_8);
  }

  public Check check(String token, Instant now) {
    if (token == null) {
      return new Check.Forged();
    }
    int dot = token.indexOf('.');
    if (dot <= 0 || dot != token.lastIndexOf('.')) {
      return new Check.Forged();
    }
    String payload = token.substring(0, dot);
    try {
      byte[] signature = DECODER.decode(token.substring(dot + 1));
      if (!MessageDigest.isEqual(signature, mac(payload))) {
        return new Check.Forged();
      }
      String[] fields = new String(DECODER.decode(payload), StandardCharsets.UTF_8).split("\n", -1);
      if (fields.length != 4) {
        return new Check.Forged();
      }
      Ballot ballot =
          new Ballot(
              Long.parseLong(fields[0]),
              fields[1],
              Vote.Choice.fromId(fields[2]),
              Instant.ofEpochSecond(Long.parseLong(fields[3])));
      return now.isAfter(ballot.expires()) ? new Check.Expired(ballot) : new Check.Valid(ballot);
    } catch (IllegalArgumentException e) {
      return new Check.Forged();
    }
  }

  private byte[] mac(String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }
}
