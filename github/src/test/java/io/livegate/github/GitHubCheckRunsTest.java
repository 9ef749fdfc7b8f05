package io.livegate.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Statuses as check runs against a WireMock stand-in for GitHub's checks API, with the list's
 * documented shape ({@code total_count}, {@code check_runs} with id, name, status, conclusion).
 */
class GitHubCheckRunsTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String SHA = "ce587453ced02b1526dfb4cb910479d431683101";
  private static final String LIST = "/repos/acme/live/commits/" + SHA + "/check-runs";
  private static final String RUNS = "/repos/acme/live/check-runs";

  private GitHubStubs stubs;
  private CommitStatusPublisher checks;

  @BeforeEach
  void client() {
    stubs = new GitHubStubs(GITHUB.baseUrl());
    // As GitHubStatuses.publisher posts them for an App: a run that cannot be written is logged.
    checks = CommitStatusPublisher.neverFailing(new GitHubCheckRuns(stubs.client), stubs.log::add);
    GITHUB.stubFor(post(RUNS).willReturn(aResponse().withStatus(201).withBody("{\"id\": 5}")));
    GITHUB.stubFor(
        patch(urlPathEqualTo(RUNS + "/4")).willReturn(aResponse().withStatus(200).withBody("{}")));
  }

  @Test
  void aPendingPlanStartsAnInProgressRunNamedAfterTheContext() {
    listAnswers("livegate/plan: app/a", "{\"total_count\": 0, \"check_runs\": []}");

    checks.publish(
        "acme/live",
        SHA,
        "livegate/plan: app/a",
        State.PENDING,
        "planning",
        "https://logs.example.com/1");

    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(RUNS))
            .withHeader("Authorization", equalTo("Bearer " + GitHubStubs.TOKEN))
            .withRequestBody(
                equalToJson(
                    """
                    {"name": "livegate/plan: app/a", "head_sha": "%s", "status": "in_progress",
                     "output": {"title": "planning", "summary": "planning"},
                     "details_url": "https://logs.example.com/1"}
                    """
                        .formatted(SHA))));
    GITHUB.verify(0, patchRequestedFor(urlPathEqualTo(RUNS + "/4")));
    assertThat(stubs.log).isEmpty();
  }

  @Test
  void theFinalStateCompletesTheRunningRunInPlaceWithThePlanSummary() {
    listAnswers(
        "livegate/plan: app/a",
        """
        {"total_count": 1, "check_runs": [
          {"id": 4, "head_sha": "%s", "name": "livegate/plan: app/a", "status": "in_progress",
           "conclusion": null, "started_at": "2026-11-27T10:00:00Z", "completed_at": null,
           "output": {"title": "planning", "summary": "planning", "text": null,
                      "annotations_count": 0}}]}
        """
            .formatted(SHA));

    checks.publish("acme/live", SHA, "livegate/plan: app/a", State.SUCCESS, "+1 ~0 -0", "");

    GITHUB.verify(
        1,
        patchRequestedFor(urlEqualTo(RUNS + "/4"))
            .withRequestBody(
                equalToJson(
                    """
                    {"status": "completed", "conclusion": "success",
                     "output": {"title": "+1 ~0 -0", "summary": "+1 ~0 -0"}}
                    """)));
    GITHUB.verify(0, postRequestedFor(urlEqualTo(RUNS)));
  }

  @Test
  void aStateAfterACompletedRunStartsANewRunAndAnErrorConcludesAsFailure() {
    listAnswers(
        "livegate/merge-lock",
        """
        {"total_count": 1, "check_runs": [
          {"id": 4, "name": "livegate/merge-lock", "status": "completed", "conclusion": "success"}]}
        """);

    checks.publish(
        "acme/live", SHA, "livegate/merge-lock", State.ERROR, "deployment 3 holds the lock", "");

    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo(RUNS))
            .withRequestBody(
                equalToJson(
                    """
                    {"name": "livegate/merge-lock", "head_sha": "%s", "status": "completed",
                     "conclusion": "failure",
                     "output": {"title": "deployment 3 holds the lock",
                                "summary": "deployment 3 holds the lock"}}
                    """
                        .formatted(SHA))));
  }

  @Test
  void aRunThatCannotBeWrittenIsLoggedNotThrown() {
    listAnswers("livegate/deploy", "{\"total_count\": 0, \"check_runs\": []}");
    GITHUB.stubFor(
        post(RUNS)
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withBody(
                        "{\"message\": \"Resource not accessible by integration\","
                            + " \"documentation_url\": \"https://docs.github.com/rest\"}")));

    checks.publish("acme/live", SHA, "livegate/deploy", State.PENDING, "deploying", "");

    assertThat(stubs.log)
        .singleElement()
        .asString()
        .startsWith("status livegate/deploy (pending) on acme/live@" + SHA + " not posted")
        .contains("403")
        .contains("Resource not accessible by integration");
  }

  /** GitHub's list of the commit's runs named {@code name}, the newest of each app. */
  private static void listAnswers(String name, String body) {
    GITHUB.stubFor(
        get(urlPathEqualTo(LIST))
            .withQueryParam("filter", equalTo("latest"))
            .withQueryParam("check_name", equalTo(name))
            .willReturn(aResponse().withStatus(200).withBody(body)));
  }
}
