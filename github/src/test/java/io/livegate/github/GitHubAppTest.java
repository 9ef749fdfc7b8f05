package io.livegate.github;

import static io.livegate.github.GitHubAppStandIn.pkcs1Pem;
import static io.livegate.github.GitHubAppStandIn.rsaKeyPair;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * livegate as a GitHub App against a stand-in for GitHub ({@link GitHubAppStandIn}) that checks
 * what GitHub checks: the JWT's RS256 signature with the App's public key, its {@code iss}, and
 * {@code iat}/{@code exp} against the stand-in's clock; installation tokens answered in the
 * documented shape and refused once expired. The App's key is made per test run and written as
 * GitHub downloads it (PKCS#1 PEM).
 */
class GitHubAppTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APP_ID = GitHubAppStandIn.APP_ID;
  private static final long INSTALLATION = GitHubAppStandIn.INSTALLATION;
  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private static final KeyPair APP_KEY = rsaKeyPair();

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
  private GitHubAppStandIn github;

  @BeforeEach
  void start() throws IOException {
    github = new GitHubAppStandIn(APP_KEY.getPublic(), clock);
  }

  @AfterEach
  void stop() {
    github.close();
  }

  @Test
  void aStatusIsPostedWithAnInstallationTokenMintedFromTheAppsSignedJwt() {
    InstallationTokens tokens = tokens(pkcs1Pem(APP_KEY));

    new GitHubStatuses(client(tokens))
        .publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "deployed", "");

    assertThat(github.tokenRequests).hasSize(1);
    JsonNode request = github.tokenRequests.get(0);
    assertThat(request.path("repositories").toString()).isEqualTo("[\"live\"]");
    assertThat(JSON.convertValue(request.path("permissions"), Map.class))
        .isEqualTo(
            Map.of(
                "contents", "read",
                "checks", "write",
                "pull_requests", "write",
                "issues", "write"));
    assertThat(github.statusTokens).containsExactly("ghs_minted1");
  }

  @Test
  void aTokenIsKeptUntilFiveMinutesBeforeItExpiresAndThenMintedAgain() {
    InstallationTokens tokens = tokens(pkcs1Pem(APP_KEY));
    GitHubStatuses statuses = new GitHubStatuses(client(tokens));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");
    clock.advance(Duration.ofMinutes(54));
    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");
    assertThat(github.tokenRequests).hasSize(1);

    clock.advance(Duration.ofMinutes(2));
    statuses.publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "deployed", "");

    assertThat(github.tokenRequests).hasSize(2);
    assertThat(github.statusTokens).containsExactly("ghs_minted1", "ghs_minted1", "ghs_minted2");
  }

  @Test
  void aKeyInPkcs8FormWorksAsWellAsGitHubsPkcs1() {
    String pkcs8 =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(APP_KEY.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";

    assertThat(tokens(pkcs8).get()).isEqualTo("ghs_minted1");
  }

  @Test
  void aKeyThatIsNotTheAppsIsRefusedWithGitHubsMessage() {
    InstallationTokens tokens = tokens(pkcs1Pem(rsaKeyPair()));

    assertThatThrownBy(tokens::get)
        .isInstanceOf(GitHubException.class)
        .hasMessageContaining("/app/installations/4567/access_tokens answered 401")
        .hasMessageContaining("A JSON web token could not be decoded")
        .satisfies(e -> assertThat(((GitHubException) e).status()).isEqualTo(401));
    assertThat(github.tokenRequests).isEmpty();
  }

  @Test
  void aJwtSignedByAClockTenMinutesBehindIsRefusedAsExpired() {
    GitHubApp app = GitHubApp.of(APP_ID, INSTALLATION, pkcs1Pem(APP_KEY), "the test key");
    Clock behind = Clock.offset(clock, Duration.ofMinutes(-10));
    GitHubClient appClient = stubbedClient(() -> app.jwt(behind.instant()));

    assertThatThrownBy(() -> new InstallationTokens(app, appClient, Optional.empty(), clock).get())
        .isInstanceOf(GitHubException.class)
        .hasMessageContaining("'Expiration time' claim ('exp') must be a numeric value");
  }

  @Test
  void aFileWithoutAPrivateKeyIsAnErrorNamingTheFile() {
    assertThatThrownBy(
            () ->
                GitHubApp.of(
                    APP_ID, INSTALLATION, "ghp_a-token-by-mistake", "/etc/livegate/app-key.pem"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageStartingWith("/etc/livegate/app-key.pem holds no PEM private key");
  }

  @Test
  void aTruncatedKeyIsAnErrorNamingWhereItCameFrom() {
    String pem = pkcs1Pem(APP_KEY);
    String truncated = pem.substring(0, 300) + "\n-----END RSA PRIVATE KEY-----\n";

    assertThatThrownBy(() -> GitHubApp.of(APP_ID, INSTALLATION, truncated, "secret livegate/app"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageStartingWith(
            "secret livegate/app holds a PEM block that is not an RSA private key");
  }

  @Test
  void anAppIdOrInstallationThatCannotBeGitHubsIsRefused() {
    String pem = pkcs1Pem(APP_KEY);
    assertThatThrownBy(() -> GitHubApp.of("my app", INSTALLATION, pem, "key"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageContaining("not 'my app'");
    assertThatThrownBy(() -> GitHubApp.of("12345", 0, pem, "key"))
        .isInstanceOf(GitHubApp.InvalidGitHubApp.class)
        .hasMessageContaining("positive number, not 0");
  }

  private InstallationTokens tokens(String pem) {
    GitHubApp app = GitHubApp.of(APP_ID, INSTALLATION, pem, "the test key");
    return new InstallationTokens(
        app, stubbedClient(() -> app.jwt(clock.instant())), Optional.of("acme/live"), clock);
  }

  private GitHubClient client(InstallationTokens tokens) {
    return stubbedClient(tokens);
  }

  private GitHubClient stubbedClient(java.util.function.Supplier<String> token) {
    return github.client(token);
  }

  private static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    synchronized void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public synchronized Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test clock is UTC");
    }
  }
}
