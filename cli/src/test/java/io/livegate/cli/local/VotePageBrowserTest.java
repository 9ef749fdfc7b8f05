package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.admin.DeploymentReport;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.deploy.RecordOutcome;
import io.livegate.core.deploy.ReleaseReadyExecutions;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.vote.Vote;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vote and status pages in a real headless Chromium against a real metadb: what a voter sees
 * and clicks. Screenshots land in {@code target/browser/} for a person to look at.
 */
@Tag("browser")
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class VotePageBrowserTest {
  private static final String ALICE = "alice@example.com";
  private static final String BOB = "bob@example.com";
  private static final String CAROL = "carol@example.com";
  private static final String MALLORY = "mallory@example.com";
  private static final Path SCREENSHOTS = Path.of("target", "browser");
  private static final String PLAN_TEXT =
      "Terraform will perform the following actions:\n\n"
          + "  # terraform_data.app will be created\n"
          + "  + resource \"terraform_data\" \"app\" {\n"
          + "      + id     = (known after apply)\n"
          + "      + input  = \"app v2\"\n"
          + "    }\n\n"
          + "Plan: 2 to add, 1 to change, 0 to destroy.\n";

  @TempDir static Path stateDirectory;
  private static HeadlessBrowser browser;
  private static LocalWiring wiring;
  private static VoteServer server;
  private static ReleaseReadyExecutions release;
  private static RecordOutcome outcomes;
  private static final AtomicInteger merges = new AtomicInteger();

  @BeforeAll
  static void start() {
    browser = HeadlessBrowser.start(SCREENSHOTS);
    wiring = new LocalWiring(stateDirectory);
    server = wiring.server(0);
    Clock clock = Clock.systemUTC();
    release = new ReleaseReadyExecutions(wiring.deployments, wiring.executions, clock);
    outcomes =
        new RecordOutcome(
            wiring.deployments,
            wiring.executions,
            wiring.startNext,
            FailurePolicy.ABORT_DEPENDENTS,
            RunnerArgv.TERRAFORM,
            clock);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (browser != null) {
      browser.close();
    }
    if (wiring != null) {
      wiring.close();
    }
  }

  @Test
  void openingAVoteLinkShowsTheUnitAndPlanAndOnlyConfirmingRecordsTheVote() {
    Deployed deployed = deployAppThenWeb();

    HeadlessBrowser.Page confirm = browser.open("alice", link(deployed.app(), ALICE));

    assertThat(confirm.status()).isEqualTo(200);
    assertThat(confirm.unit()).isEqualTo("app");
    assertThat(confirm.summary()).isEqualTo("2 to add, 1 to change, 0 to destroy");
    assertThat(confirm.plan()).contains("# terraform_data.app will be created");
    assertThat(confirm.confirm()).isEqualTo("Approve");
    browser.screenshot("alice", SCREENSHOTS.resolve("vote-confirm-page.png"));
    assertThat(wiring.votes.votes(deployed.app().id())).isEmpty();
    assertThat(decision(deployed.app())).isNull();

    HeadlessBrowser.Page recorded = browser.click("alice", "#confirm");

    assertThat(recorded.status()).isEqualTo(200);
    assertThat(recorded.result())
        .isEqualTo(
            "Your approve is recorded (1 approvals, 0 rejections). It decided the vote: approved.");
    browser.screenshot("alice", SCREENSHOTS.resolve("vote-recorded-page.png"));
    assertThat(wiring.votes.votes(deployed.app().id()))
        .singleElement()
        .satisfies(
            vote -> {
              assertThat(vote.voter()).isEqualTo(ALICE);
              assertThat(vote.choice()).isEqualTo(Vote.Choice.APPROVE);
            });
    assertThat(decision(deployed.app())).isEqualTo("approved");
  }

  @Test
  void forgedExpiredAndNonVoterLinksAreRefusedWithoutAButtonOrAVote() {
    Deployed deployed = deployAppThenWeb();
    long app = deployed.app().id();

    HeadlessBrowser.Page forged = browser.open("refused", forge(link(deployed.app(), ALICE)));
    assertThat(forged.status()).isEqualTo(403);
    assertThat(forged.result()).isEqualTo("This vote link is not valid. No vote was recorded.");
    assertThat(forged.confirm()).isNull();
    browser.screenshot("refused", SCREENSHOTS.resolve("vote-forged-page.png"));

    HeadlessBrowser.Page notAVoter = browser.open("refused", link(deployed.app(), MALLORY));
    assertThat(notAVoter.status()).isEqualTo(403);
    assertThat(notAVoter.result())
        .isEqualTo(MALLORY + " is not a voter for this unit. No vote was recorded.");
    assertThat(notAVoter.confirm()).isNull();

    Instant expiredAt = Instant.now().minus(Duration.ofMinutes(5));
    HeadlessBrowser.Page expired =
        browser.open("refused", server.link(app, ALICE, Vote.Choice.APPROVE, expiredAt));
    assertThat(expired.status()).isEqualTo(410);
    assertThat(expired.result()).startsWith("This vote link expired at").endsWith("recorded.");
    assertThat(expired.confirm()).isNull();

    assertThat(wiring.votes.history(app)).isEmpty();
    assertThat(decision(deployed.app())).isNull();
  }

  @Test
  void aVoterWhoConfirmsAfterTheDecisionIsToldItWasAlreadyDecidedAndIsNotCounted() {
    Deployed deployed = deployAppThenWeb();
    HeadlessBrowser.Page bobsPage =
        browser.open("bob", link(deployed.app(), BOB, Vote.Choice.REJECT));
    assertThat(bobsPage.confirm()).isEqualTo("Reject");

    browser.open("alice", link(deployed.app(), ALICE));
    browser.click("alice", "#confirm");
    HeadlessBrowser.Page late = browser.click("bob", "#confirm");

    assertThat(late.status()).isEqualTo(409);
    assertThat(late.result())
        .isEqualTo("This vote was already decided: approved. Your vote was not counted.");
    assertThat(wiring.votes.history(deployed.app().id()))
        .extracting(Vote::voter)
        .containsExactly(ALICE);

    HeadlessBrowser.Page reopened =
        browser.open("bob", link(deployed.app(), BOB, Vote.Choice.REJECT));
    assertThat(reopened.status()).isEqualTo(409);
    assertThat(reopened.result()).isEqualTo("This vote was already decided: approved.");
    assertThat(reopened.confirm()).isNull();
    assertThat(decision(deployed.app())).isEqualTo("approved");
  }

  @Test
  void aRejectingVoterSeesTheVotesSoFarAndTheirReasonIsKeptAndShownInTheConsoleTheResultLinksTo() {
    // three voters, two votes decide: alice's approval leaves the vote open for bob's reject
    Deployed deployed = deployAppThenWeb(List.of(ALICE, BOB, CAROL), 2, 2);
    long app = deployed.app().id();
    browser.open("alice", link(deployed.app(), ALICE));
    browser.click("alice", "#confirm");
    String alicesTime =
        wiring.votes.votes(app).get(0).castAt().truncatedTo(ChronoUnit.SECONDS).toString();

    HeadlessBrowser.Page bobs = browser.open("bob", link(deployed.app(), BOB, Vote.Choice.REJECT));
    assertThat(bobs.votes()).containsExactly(List.of(ALICE, "approve", alicesTime, ""));
    String reason = "app v2's image is not in the registry yet";
    browser.fill("bob", "#reason", reason);
    browser.screenshot("bob", SCREENSHOTS.resolve("vote-reject-with-reason-page.png"));
    HeadlessBrowser.Page recorded = browser.click("bob", "#confirm");

    assertThat(recorded.status()).isEqualTo(200);
    assertThat(recorded.result()).isEqualTo("Your reject is recorded (1 approvals, 1 rejections).");
    assertThat(recorded.consoleLink())
        .isEqualTo(server.baseUrl() + "/deployments/" + deployed.id() + "/units/" + app);
    assertThat(wiring.votes.history(app))
        .extracting(Vote::voter, Vote::choice, Vote::reason)
        .containsExactly(
            tuple(ALICE, Vote.Choice.APPROVE, ""), tuple(BOB, Vote.Choice.REJECT, reason));
    assertThat(
            DeploymentReport.of(wiring.deployments, wiring.executions, wiring.votes, deployed.id())
                .json(wiring.logs)
                .toString())
        .contains("reason=" + reason);

    HeadlessBrowser.Page carols =
        browser.open("carol", link(deployed.app(), CAROL, Vote.Choice.REJECT));
    assertThat(carols.votes())
        .extracting(row -> List.of(row.get(0), row.get(1), row.get(3)))
        .containsExactly(List.of(ALICE, "approve", ""), List.of(BOB, "reject", reason));

    HeadlessBrowser.Page unitPage = browser.open("bob", recorded.consoleLink());
    assertThat(unitPage.status()).isEqualTo(200);
    assertThat(unitPage.votes())
        .extracting(row -> List.of(row.get(0), row.get(1), row.get(3)))
        .containsExactly(List.of(ALICE, "approve", ""), List.of(BOB, "reject", reason));
    browser.screenshot("bob", SCREENSHOTS.resolve("console-unit-votes-with-reason.png"));
  }

  /**
   * The vote pages a voter opens from a mail, as the console's are checked (ConsoleBrowserTest): at
   * a phone's and a desktop's width no sideways scroll and no cut-off unit name, and no serious or
   * critical axe-core violation; opening them votes for nobody.
   */
  @Test
  void theVotePagesReadAtPhoneAndDesktopWidthsWithNoSeriousAccessibilityViolation()
      throws Exception {
    Deployed deployed = deployAppThenWeb();

    Map<String, JsonNode> pages =
        HeadlessBrowser.layoutAndAccessibility(
            SCREENSHOTS,
            "vote-approve=" + link(deployed.app(), ALICE),
            "vote-reject=" + link(deployed.app(), BOB, Vote.Choice.REJECT),
            "vote-forged=" + forge(link(deployed.app(), ALICE)));

    assertThat(pages).hasSize(6);
    pages.forEach(
        (key, page) -> {
          assertThat(page.get("horizontalScroll").asBoolean())
              .as(key + " scrolls sideways")
              .isFalse();
          assertThat(page.get("cutNames")).as(key + " cuts names off").isEmpty();
          assertThat(page.get("violations")).as(key + " axe-core").isEmpty();
        });
    for (int width : new int[] {390, 1400}) {
      assertThat(pages.get("vote-approve@" + width).get("status").asInt()).isEqualTo(200);
      assertThat(pages.get("vote-reject@" + width).get("status").asInt()).isEqualTo(200);
      assertThat(pages.get("vote-forged@" + width).get("status").asInt()).isEqualTo(403);
    }
    assertThat(wiring.votes.history(deployed.app().id())).isEmpty();
  }

  @Test
  void theStatusPageDrawsOneBoxPerExecutionWithItsStatus() {
    Deployed deployed = deployAppThenWeb();
    wiring.show(deployed.id());
    String status = server.baseUrl() + "/status";

    HeadlessBrowser.Page running = browser.open("status", status);
    assertThat(running.deploymentStatus()).isEqualTo("running");
    assertThat(running.units())
        .containsExactly(
            new HeadlessBrowser.Box("app", "running", true),
            new HeadlessBrowser.Box("web", "waiting", true));

    outcomes.record(deployed.app().id(), ExecutionStatus.SUCCEEDED);
    Execution web = release.release(deployed.id()).get(0);
    HeadlessBrowser.Page next = browser.open("status", status);
    assertThat(next.units())
        .containsExactly(
            new HeadlessBrowser.Box("app", "succeeded", true),
            new HeadlessBrowser.Box("web", "running", true));
    browser.screenshot("status", SCREENSHOTS.resolve("status-page.png"));

    outcomes.record(web.id(), ExecutionStatus.SUCCEEDED);
    HeadlessBrowser.Page finished = browser.open("status", status);
    assertThat(finished.deploymentStatus()).isEqualTo("succeeded");
    assertThat(finished.units())
        .extracting(HeadlessBrowser.Box::status)
        .containsExactly("succeeded", "succeeded");
  }

  /** A deployment of app and web (which depends on app), with app released and planned. */
  private record Deployed(long id, Execution app) {}

  private static Deployed deployAppThenWeb() {
    return deployAppThenWeb(List.of(ALICE, BOB), 1, 1);
  }

  private static Deployed deployAppThenWeb(
      List<String> voters, int minApprovals, int minRejections) {
    // Each test deploys its own repository, so no deployment waits behind another's lock.
    String repository = "acme/live-" + merges.incrementAndGet();
    DeployStack stack =
        new DeployStack(
            ScanMode.GRAPH,
            "base",
            "head",
            List.of(new AccountOrder("default", "", List.of())),
            List.of(
                new PlannedExecution(
                    "app", "default", List.of(), 0, List.of(Reason.changedFile("app/main.tf"))),
                new PlannedExecution(
                    "web", "default", List.of("app"), 1, List.of(Reason.dependsOn("app")))),
            List.of(),
            List.of(),
            List.of());
    Accounts accounts =
        Accounts.of(
            List.of(
                Account.of("default", "", List.of())
                    .withVotes(voters, minApprovals, minRejections)));
    long id =
        wiring
            .create
            .create(
                new CreateDeploymentCommand(
                    MergedPullRequest.withExactBase(
                        repository, 7, "main", "change", "base", "head"),
                    stack,
                    accounts,
                    RunnerArgv.TERRAFORM))
            .deployment()
            .id();
    Execution app = release.release(id).get(0);
    assertThat(app.unit()).isEqualTo("app");
    // As the plan store keeps it: the text beside the plan file its reference names.
    String reference = PlanStore.reference(app);
    wiring.executions.recordPlan(
        app.id(), reference, "0".repeat(64), new PlanSummary(2, 1, 0, List.of()));
    try {
      Path text = wiring.state.root().resolve(reference + ".txt");
      Files.createDirectories(text.getParent());
      Files.writeString(text, PLAN_TEXT);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new Deployed(id, app);
  }

  private static String link(Execution execution, String voter) {
    return link(execution, voter, Vote.Choice.APPROVE);
  }

  private static String link(Execution execution, String voter, Vote.Choice choice) {
    return server.link(execution.id(), voter, choice, Instant.now().plus(Duration.ofHours(1)));
  }

  /** The same link with one character of its signature changed. */
  private static String forge(String link) {
    int query = link.indexOf("?t=") + 3;
    String token = URLDecoder.decode(link.substring(query), StandardCharsets.UTF_8);
    int signature = token.indexOf('.') + 1;
    char replaced = token.charAt(signature) == 'A' ? 'B' : 'A';
    String forged = token.substring(0, signature) + replaced + token.substring(signature + 1);
    return link.substring(0, query) + URLEncoder.encode(forged, StandardCharsets.UTF_8);
  }

  private static String decision(Execution execution) {
    return wiring.executions.find(execution.id()).orElseThrow().decision();
  }
}
