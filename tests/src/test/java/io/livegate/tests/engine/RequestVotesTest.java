package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.flow.FlowState;
import io.livegate.core.vote.RequestVotes;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.core.vote.VoteMail;
import io.livegate.sql.testing.RecordingFlowCallback;
import io.livegate.sql.testing.RecordingMailer;
import io.livegate.sql.testing.Scenarios;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RequestVotesTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final String BASE_URL = "https://vote.example.lambda-url.eu-west-1.on.aws";
  private static final Duration LIFETIME = Duration.ofDays(3);
  private static final String ALICE = "alice@example.com";
  private static final String BOB = "bob@example.com";
  private static final String CAROL = "carol@example.com";
  private static final List<String> VOTERS = List.of(ALICE, BOB, CAROL);
  private static final Accounts ACCOUNTS = SyntheticDeployments.accounts(1, VOTERS, 2, 1);

  /** dns first, then app, which waits for it. */
  private static final CreateDeploymentCommand DEPLOYMENT =
      command(
          7,
          ACCOUNTS,
          List.of(
              unit("account-0/dns", "account-0", 0, List.of()),
              unit("account-0/app", "account-0", 1, List.of("account-0/dns"))));

  private static final PlanSummary CHANGES = new PlanSummary(2, 1, 0, List.of("hashicorp/null"));
  private static final PlanSummary NO_CHANGES = new PlanSummary(0, 0, 0, List.of());
  private static final String SHA256 = "ab".repeat(32);
  private static final String LOG_URL = "https://logs.example/plan/dns";

  private final TestEngine engine = TestEngine.fresh();
  private final VoteLinks links =
      new VoteLinks("a vote-link key of thirty-two bytes or more".getBytes(StandardCharsets.UTF_8));
  private final RecordingMailer mailer = new RecordingMailer();
  private final RecordingFlowCallback callback = new RecordingFlowCallback();
  private final long deploymentId = engine.create.create(DEPLOYMENT).deployment().id();
  private final Execution dns = engine.release.release(deploymentId).get(0);

  private RequestVotes requestVotes(boolean skipEmpty) {
    return new RequestVotes(
        engine.executions,
        engine.deployments,
        links,
        mailer,
        callback,
        new RequestVotes.Settings(BASE_URL, LIFETIME, skipEmpty),
        Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private void plan(PlanSummary summary) {
    assertThat(engine.executions.recordPlan(dns.id(), "plans/dns.tfplan", SHA256, summary))
        .isTrue();
  }

  private Execution app() {
    return engine.executions.list(deploymentId).stream()
        .filter(e -> e.unit().equals("account-0/app"))
        .findFirst()
        .orElseThrow();
  }

  /** The token of the link after {@code label} in the mail's text, checked to be a vote link. */
  private static String token(VoteMail mail, String label) {
    Matcher link = Pattern.compile(label + ":\\s+(\\S+)").matcher(mail.text());
    assertThat(link.find()).as("a %s link in %s", label, mail.text()).isTrue();
    String prefix = BASE_URL + VoteDesk.PATH + "?" + VoteDesk.TOKEN_PARAMETER + "=";
    assertThat(link.group(1)).startsWith(prefix);
    assertThat(mail.html()).contains("href=\"" + link.group(1) + "\"");
    return URLDecoder.decode(link.group(1).substring(prefix.length()), StandardCharsets.UTF_8);
  }

  @Test
  void keepsTheTaskTokenAndMailsEveryVoterTheirOwnSignedLinks() {
    plan(CHANGES);

    RequestVotes.Requested requested = requestVotes(false).request(dns.id(), "token-1", LOG_URL);

    assertThat(requested.mailed()).containsExactlyElementsOf(VOTERS);
    assertThat(requested.failures()).isEmpty();
    assertThat(requested.message()).isEqualTo(dns.name() + ": mailed 3 of 3 voters");
    assertThat(engine.executions.approvalToken(dns.id())).contains("token-1");
    assertThat(engine.executions.flowState(dns.id()))
        .contains(FlowState.REQUEST_APPROVAL.stateName());
    assertThat(callback.answers()).isEmpty();
    assertThat(mailer.sent()).containsOnlyKeys(VOTERS);
    Instant expires = NOW.plus(LIFETIME);
    for (String voter : VOTERS) {
      VoteMail mail = mailer.sent().get(voter);
      assertThat(mail.subject()).isEqualTo("[livegate] approve account-0/dns (account-0)?");
      assertThat(mail.text())
          .contains(
              Scenarios.REPOSITORY + "#7",
              "2 to add, 1 to change, 0 to destroy",
              "hashicorp/null",
              LOG_URL);
      assertThat(links.check(token(mail, "Approve"), NOW))
          .isEqualTo(
              new VoteLinks.Check.Valid(
                  new VoteLinks.Ballot(dns.id(), voter, Vote.Choice.APPROVE, expires)));
      assertThat(links.check(token(mail, "Reject"), NOW))
          .isEqualTo(
              new VoteLinks.Check.Valid(
                  new VoteLinks.Ballot(dns.id(), voter, Vote.Choice.REJECT, expires)));
      assertThat(links.check(token(mail, "Approve"), expires.plusSeconds(1)))
          .isInstanceOf(VoteLinks.Check.Expired.class);
    }
  }

  @Test
  void aRepeatedRequestKeepsOnlyTheNewestToken() {
    plan(CHANGES);

    requestVotes(false).request(dns.id(), "token-1", LOG_URL);
    requestVotes(false).request(dns.id(), "token-2", LOG_URL);

    assertThat(engine.executions.approvalToken(dns.id())).contains("token-2");
  }

  @Test
  void aVoterWhoseMailFailsDoesNotStopTheOthers() {
    plan(CHANGES);
    mailer.refuse(BOB);

    RequestVotes.Requested requested = requestVotes(false).request(dns.id(), "token-1", "");

    assertThat(requested.mailed()).containsExactly(ALICE, CAROL);
    assertThat(requested.failures()).containsExactly(BOB + ": the mail service refused " + BOB);
    assertThat(requested.message())
        .isEqualTo(
            dns.name()
                + ": mailed 2 of 3 voters; failed: "
                + BOB
                + ": the mail service refused "
                + BOB);
    assertThat(mailer.sent()).containsOnlyKeys(ALICE, CAROL);
    assertThat(callback.answers()).isEmpty();
    assertThat(engine.executions.approvalToken(dns.id())).contains("token-1");
  }

  @Test
  void whenNoVoterCanBeMailedTheFlowFailsWithMailFailed() {
    plan(CHANGES);
    VOTERS.forEach(mailer::refuse);

    RequestVotes.Requested requested = requestVotes(false).request(dns.id(), "token-1", "");

    assertThat(requested.mailed()).isEmpty();
    assertThat(requested.failures()).hasSize(3);
    assertThat(mailer.sent()).isEmpty();
    assertThat(callback.answers())
        .singleElement()
        .asString()
        .startsWith(
            "fail token-1 "
                + RequestVotes.MAIL_FAILED_ERROR
                + ": no voter of "
                + dns.name()
                + " could be mailed: ")
        .contains(ALICE, BOB, CAROL);
  }

  @Test
  void aPlanWithoutChangesSkipsTheVoteWhenTheInstallationSaysSo() {
    plan(NO_CHANGES);

    RequestVotes.Requested requested = requestVotes(true).request(dns.id(), "token-1", "");

    assertThat(callback.answers()).containsExactly("decide token-1 skipped");
    assertThat(mailer.sent()).isEmpty();
    assertThat(requested.mailed()).isEmpty();
    assertThat(requested.message()).isEqualTo(dns.name() + ": no changes; vote skipped");
    assertThat(engine.executions.approvalToken(dns.id())).contains("token-1");
  }

  @Test
  void aPlanWithoutChangesIsVotedOnWhenSkippingIsOff() {
    plan(NO_CHANGES);

    requestVotes(false).request(dns.id(), "token-1", "");

    assertThat(mailer.sent()).containsOnlyKeys(VOTERS);
    assertThat(callback.answers()).isEmpty();
  }

  @Test
  void aPlanWithChangesIsVotedOnEvenWhenEmptyPlansAreSkipped() {
    plan(CHANGES);

    requestVotes(true).request(dns.id(), "token-1", "");

    assertThat(mailer.sent()).containsOnlyKeys(VOTERS);
    assertThat(callback.answers()).isEmpty();
  }

  @Test
  void anExecutionThatIsNotRunningFailsTheFlowAndNobodyIsMailed() {
    Execution waiting = app();

    RequestVotes.Requested requested = requestVotes(false).request(waiting.id(), "token-1", "");
    requestVotes(false).request(999_999, "token-2", "");

    assertThat(requested.message())
        .isEqualTo("execution " + waiting.name() + " is waiting; no votes requested");
    assertThat(callback.answers())
        .containsExactly(
            "fail token-1 livegate.NotRunning: execution " + waiting.name() + " is waiting",
            "fail token-2 livegate.NotRunning: there is no execution 999999");
    assertThat(engine.executions.approvalToken(waiting.id())).isEmpty();
    assertThat(mailer.sent()).isEmpty();
  }

  @Test
  void anExecutionThatEndedBeforeItsRequestArrivedFailsTheFlow() {
    plan(CHANGES);
    engine.outcomes.record(dns.id(), ExecutionStatus.SUCCEEDED);

    requestVotes(false).request(dns.id(), "token-1", "");

    assertThat(callback.answers())
        .containsExactly(
            "fail token-1 livegate.NotRunning: execution " + dns.name() + " is succeeded");
    assertThat(engine.executions.approvalToken(dns.id())).isEmpty();
    assertThat(mailer.sent()).isEmpty();
  }

  @Test
  void anExecutionWithoutARecordedPlanFailsTheFlow() {
    requestVotes(false).request(dns.id(), "token-1", "");

    assertThat(callback.answers())
        .containsExactly(
            "fail token-1 "
                + RequestVotes.MAIL_FAILED_ERROR
                + ": execution "
                + dns.name()
                + " has no recorded plan");
    assertThat(engine.executions.approvalToken(dns.id())).isEmpty();
    assertThat(mailer.sent()).isEmpty();
  }
}
