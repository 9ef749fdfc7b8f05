package io.livegate.github;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.drift.DriftReport;
import io.livegate.core.drift.ReportDrift;
import io.livegate.core.vote.VoteMail;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A scheduled drift run's report against a WireMock stand-in for GitHub's issues API: one issue,
 * opened by the first run that finds drift, updated by the next ones, closed once in sync.
 */
class GitHubIssuesTest {
  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String LIST =
      "/repos/acme/live/issues?state=open&labels=livegate-drift&per_page=100";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Accounts ACCOUNTS =
      Accounts.of(
          List.of(
              Account.of("dev", "dev", List.of()).withVotes(List.of("dev-lead@example.com"), 1, 1),
              Account.of("prod", "prod", List.of())
                  .withVotes(List.of("prod-lead@example.com"), 1, 1)));
  private static final DriftReport DRIFTED =
      new DriftReport(
          "a".repeat(40),
          3,
          List.of(
              new DriftReport.DriftedUnit(
                  "dev/app", "dev", List.of("terraform_data.this: update"))),
          List.of());
  private static final DriftReport IN_SYNC =
      new DriftReport("b".repeat(40), 3, List.of(), List.of());

  private final List<String> mailed = new ArrayList<>();
  private ReportDrift report;

  @BeforeEach
  void reporter() {
    report =
        new ReportDrift(
            new GitHubIssues(new GitHubStubs(GITHUB.baseUrl()).client),
            (String voter, VoteMail mail) -> mailed.add(voter + ": " + mail.subject()),
            line -> {});
    GITHUB.stubFor(
        post("/repos/acme/live/issues")
            .willReturn(aResponse().withStatus(201).withBody("{\"number\":12}")));
    GITHUB.stubFor(
        patch(urlPathEqualTo("/repos/acme/live/issues/12"))
            .willReturn(aResponse().withStatus(200).withBody("{\"number\":12}")));
  }

  private void openIssues(String json) {
    GITHUB.stubFor(get(urlEqualTo(LIST)).willReturn(aResponse().withStatus(200).withBody(json)));
  }

  @Test
  void theFirstRunThatFindsDriftOpensOneLabelledIssueAndMailsTheDriftedAccountsVoters() {
    openIssues("[{\"number\":3,\"body\":\"someone else's issue\"}]");

    assertThat(report.report("acme/live", DRIFTED, ACCOUNTS))
        .isEqualTo(ReportDrift.Outcome.CREATED);

    GITHUB.verify(
        1,
        postRequestedFor(urlEqualTo("/repos/acme/live/issues"))
            .withRequestBody(matchingJsonPath("$.labels[0]", equalTo("livegate-drift")))
            .withRequestBody(
                matchingJsonPath(
                    "$.body", containing(ReportDrift.MARKER + "\nlivegate planned 3 units")))
            .withRequestBody(
                matchingJsonPath(
                    "$.body", containing("| `dev/app` | dev | terraform_data.this: update |"))));
    GITHUB.verify(0, patchRequestedFor(urlPathEqualTo("/repos/acme/live/issues/12")));
    assertThat(mailed)
        .containsExactly(
            "dev-lead@example.com: [livegate] drift: 1 units drifted, 0 could not be planned");
  }

  @Test
  void aLaterRunUpdatesTheOpenIssueInsteadOfOpeningAnother() throws Exception {
    openIssues(
        "[{\"number\":9,\"body\":\""
            + ReportDrift.MARKER
            + "\",\"pull_request\":{}},{\"number\":12,\"body\":\""
            + ReportDrift.MARKER
            + "\\nold report\"}]");

    assertThat(report.report("acme/live", DRIFTED, ACCOUNTS))
        .isEqualTo(ReportDrift.Outcome.UPDATED);

    GITHUB.verify(0, postRequestedFor(urlEqualTo("/repos/acme/live/issues")));
    List<LoggedRequest> patches =
        GITHUB.findAll(patchRequestedFor(urlPathEqualTo("/repos/acme/live/issues/12")));
    assertThat(patches).hasSize(1);
    JsonNode body = JSON.readTree(patches.get(0).getBodyAsString());
    assertThat(body.path("body").asText()).contains("| `dev/app` | dev |");
    assertThat(body.has("state")).as("an update with drift leaves the issue open").isFalse();
  }

  @Test
  void aRunInSyncClosesTheOpenIssueWithItsReportAndMailsNobody() {
    openIssues("[{\"number\":12,\"body\":\"" + ReportDrift.MARKER + "\\nold report\"}]");

    assertThat(report.report("acme/live", IN_SYNC, ACCOUNTS)).isEqualTo(ReportDrift.Outcome.CLOSED);

    GITHUB.verify(
        1,
        patchRequestedFor(urlPathEqualTo("/repos/acme/live/issues/12"))
            .withRequestBody(
                equalToJson(
                    JSON.createObjectNode()
                        .put(
                            "body",
                            ReportDrift.MARKER
                                + "\nlivegate planned 3 units at `"
                                + "b".repeat(40)
                                + "`: no drift.\n")
                        .put("state", "closed")
                        .toString())));
    GITHUB.verify(0, postRequestedFor(urlEqualTo("/repos/acme/live/issues")));
    assertThat(mailed).isEmpty();
  }

  @Test
  void aRunInSyncWithNoOpenIssuePostsNothing() {
    openIssues("[]");

    assertThat(report.report("acme/live", IN_SYNC, ACCOUNTS))
        .isEqualTo(ReportDrift.Outcome.NOTHING);

    GITHUB.verify(0, postRequestedFor(urlEqualTo("/repos/acme/live/issues")));
  }
}
