package io.livegate.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Commit statuses against a WireMock stand-in for GitHub's API: the exact requests, the retries on
 * server errors and rate limits, and that a status that cannot be posted is logged, never thrown.
 */
class GitHubStatusesTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String SHA = "0123456789abcdef0123456789abcdef01234567";
  private static final String PATH = "/repos/acme/live/statuses/" + SHA;
  private static final ObjectMapper JSON = new ObjectMapper();

  private GitHubStubs stubs;
  private CommitStatusPublisher statuses;

  @BeforeEach
  void client() {
    stubs = new GitHubStubs(GITHUB.baseUrl());
    // What the entry points post through: a token (not an App's) picks commit statuses.
    statuses = GitHubStatuses.publisher(stubs.client, () -> () -> "a-token", stubs.log::add);
  }

  @Test
  void aStatusIsOnePostWithContextStateDescriptionAndTargetUrl() {
    GITHUB.stubFor(post(PATH).willReturn(aResponse().withStatus(201).withBody("{}")));

    statuses.publish(
        "acme/live",
        SHA,
        "livegate/plan: app/a",
        State.PENDING,
        "planning",
        "https://logs.example.com/pr-plan/1");

    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(PATH))
            .withHeader("Authorization", equalTo("Bearer " + GitHubStubs.TOKEN))
            .withHeader("Accept", equalTo("application/vnd.github+json"))
            .withHeader("X-GitHub-Api-Version", equalTo(GitHubClient.API_VERSION))
            .withHeader("User-Agent", equalTo("livegate"))
            .withHeader("Content-Type", equalTo("application/json"))
            .withRequestBody(
                equalToJson(
                    """
                    {"state": "pending", "context": "livegate/plan: app/a",
                     "description": "planning",
                     "target_url": "https://logs.example.com/pr-plan/1"}
                    """)));
    assertThat(stubs.sleeps).isEmpty();
    assertThat(stubs.log).isEmpty();
  }

  @Test
  void anEmptyTargetUrlIsLeftOutAndEveryStateIsLowerCase() {
    GITHUB.stubFor(post(PATH).willReturn(aResponse().withStatus(201)));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.FAILURE, "no deployment", "");
    statuses.publish("acme/live", SHA, "livegate/deploy", State.ERROR, "refused", "");
    statuses.publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "done", "");

    for (String state : new String[] {"failure", "error", "success"}) {
      GITHUB.verify(
          1,
          postRequestedFor(urlEqualTo(PATH))
              .withRequestBody(
                  equalToJson(
                      JSON.createObjectNode()
                          .put("state", state)
                          .put("context", "livegate/deploy")
                          .put(
                              "description",
                              switch (state) {
                                case "failure" -> "no deployment";
                                case "error" -> "refused";
                                default -> "done";
                              })
                          .toString())));
    }
  }

  @Test
  void aDescriptionIsCutTo140CharactersOnOneLine() {
    GITHUB.stubFor(post(PATH).willReturn(aResponse().withStatus(201)));
    String long200 = "x".repeat(100) + "\n" + "é".repeat(99);

    statuses.publish("acme/live", SHA, "livegate/deploy", State.FAILURE, long200, "");

    String expected = "x".repeat(100) + " " + "é".repeat(38) + "…";
    assertThat(expected.codePointCount(0, expected.length())).isEqualTo(140);
    GITHUB.verify(
        postRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    JSON.createObjectNode()
                        .put("state", "failure")
                        .put("context", "livegate/deploy")
                        .put("description", expected)
                        .toString())));
  }

  @Test
  void hostileUnitNamesTravelAsJsonStringData() {
    GITHUB.stubFor(post(PATH).willReturn(aResponse().withStatus(201)));
    String unit = "app/it's a \"unit\" $(touch /tmp/pwned) `id` \\ {\"x\":1}";

    statuses.publish(
        "acme/live", SHA, "livegate/plan: " + unit, State.SUCCESS, "+1 ~0 -0 " + unit, "");

    GITHUB.verify(
        postRequestedFor(urlEqualTo(PATH))
            .withRequestBody(
                equalToJson(
                    JSON.createObjectNode()
                        .put("state", "success")
                        .put("context", "livegate/plan: " + unit)
                        .put("description", "+1 ~0 -0 " + unit)
                        .toString())));
  }

  @Test
  void aServerErrorIsRetriedAndTheStatusPostedOnce() {
    GITHUB.stubFor(
        post(PATH)
            .inScenario("flaky")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(503).withBody("{\"message\":\"unavailable\"}"))
            .willSetStateTo("recovered"));
    GITHUB.stubFor(
        post(PATH)
            .inScenario("flaky")
            .whenScenarioStateIs("recovered")
            .willReturn(aResponse().withStatus(201)));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(2, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps).containsExactly(Duration.ofSeconds(1));
    assertThat(stubs.log).isEmpty();
  }

  @Test
  void aSecondaryRateLimitWaitsForRetryAfter() {
    GITHUB.stubFor(
        post(PATH)
            .inScenario("limited")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withHeader("Retry-After", "7")
                    .withBody("{\"message\":\"You have exceeded a secondary rate limit.\"}"))
            .willSetStateTo("calm"));
    GITHUB.stubFor(
        post(PATH)
            .inScenario("limited")
            .whenScenarioStateIs("calm")
            .willReturn(aResponse().withStatus(201)));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(2, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps).containsExactly(Duration.ofSeconds(7));
  }

  @Test
  void anExhaustedRateLimitWaitsUntilItsReset() {
    long reset = GitHubStubs.NOW.plusSeconds(20).getEpochSecond();
    GITHUB.stubFor(
        post(PATH)
            .inScenario("exhausted")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                aResponse()
                    .withStatus(429)
                    .withHeader("x-ratelimit-remaining", "0")
                    .withHeader("x-ratelimit-reset", String.valueOf(reset)))
            .willSetStateTo("reset"));
    GITHUB.stubFor(
        post(PATH)
            .inScenario("exhausted")
            .whenScenarioStateIs("reset")
            .willReturn(aResponse().withStatus(201)));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(2, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps).containsExactly(Duration.ofSeconds(21));
  }

  @Test
  void aRateLimitLongerThanTheCapIsNotWaitedFor() {
    GITHUB.stubFor(
        post(PATH).willReturn(aResponse().withStatus(429).withHeader("Retry-After", "3600")));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(1, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps).isEmpty();
    assertThat(stubs.log).singleElement().asString().contains("rate limited for 3600 s");
  }

  @Test
  void aValidationErrorIsNotRetried() {
    GITHUB.stubFor(
        post(PATH)
            .willReturn(
                aResponse().withStatus(422).withBody("{\"message\":\"Validation Failed\"}")));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(1, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps).isEmpty();
    assertThat(stubs.log)
        .singleElement()
        .asString()
        .contains("livegate/deploy (pending) on acme/live@" + SHA + " not posted")
        .contains("answered 422: Validation Failed");
  }

  @Test
  void aPermissionErrorWithoutRateLimitHeadersIsNotRetried() {
    GITHUB.stubFor(
        post(PATH)
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withBody("{\"message\":\"Resource not accessible by integration\"}")));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    GITHUB.verify(1, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.log).singleElement().asString().contains("Resource not accessible");
  }

  @Test
  void everyAttemptFailingIsLoggedAfterFourAttemptsAndNeverThrown() {
    GITHUB.stubFor(post(PATH).willReturn(aResponse().withStatus(502).withBody("bad gateway")));

    statuses.publish("acme/live", SHA, "livegate/deploy", State.SUCCESS, "deployed", "");

    GITHUB.verify(4, postRequestedFor(urlEqualTo(PATH)));
    assertThat(stubs.sleeps)
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    assertThat(stubs.log)
        .singleElement()
        .asString()
        .contains("answered 502: bad gateway")
        .contains("gave up after 4 attempts");
  }

  @Test
  void anUnreachableGitHubIsRetriedThenLogged() {
    GitHubStubs unreachable = new GitHubStubs("http://127.0.0.1:1");
    GitHubStatuses.publisher(unreachable.client, () -> () -> "a-token", unreachable.log::add)
        .publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    assertThat(unreachable.sleeps).hasSize(3);
    assertThat(unreachable.log).singleElement().asString().contains("gave up after 4 attempts");
  }

  @Test
  void credentialsThatCannotBeReadAreLoggedAndNeverThrown() {
    CommitStatusPublisher unreadable =
        GitHubStatuses.publisher(
            stubs.client,
            () -> {
              throw new LivegateException("cannot read the secret livegate/github");
            },
            stubs.log::add);

    unreadable.publish("acme/live", SHA, "livegate/deploy", State.FAILURE, "failed", "");

    GITHUB.verify(0, postRequestedFor(urlPathMatching(".*")));
    assertThat(stubs.log)
        .containsExactly(
            "status livegate/deploy (failure) on acme/live@"
                + SHA
                + " not posted: cannot read the secret livegate/github");
  }

  @Test
  void aRepositoryOrShaThatIsNotOneIsRefusedBeforeAnyRequest() {
    GITHUB.stubFor(post(urlPathMatching(".*")).willReturn(aResponse().withStatus(201)));

    statuses.publish("acme/live/../../user", SHA, "c", State.PENDING, "d", "");
    statuses.publish("acme/live", "HEAD", "c", State.PENDING, "d", "");

    GITHUB.verify(0, postRequestedFor(urlPathMatching(".*")));
    assertThat(stubs.log)
        .hasSize(2)
        .anySatisfy(line -> assertThat(line).contains("owner/name"))
        .anySatisfy(line -> assertThat(line).contains("full lower-case commit sha"));
  }
}
