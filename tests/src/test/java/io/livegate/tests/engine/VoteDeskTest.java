package io.livegate.tests.engine;

import static io.livegate.sql.testing.SyntheticDeployments.command;
import static io.livegate.sql.testing.SyntheticDeployments.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.core.vote.Decision;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.sql.testing.Scenarios;
import io.livegate.sql.testing.SyntheticDeployments;
import io.livegate.sql.testing.TestEngine;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VoteDeskTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant EXPIRES = NOW.plusSeconds(3600);
  private static final String ALICE = "alice@example.com";
  private static final String BOB = "bob@example.com";
  private static final String CAROL = "carol@example.com";
  private static final String MALLORY = "mallory@example.com";
  private static final byte[] KEY =
      "a vote-link key of thirty-two bytes or more".getBytes(StandardCharsets.UTF_8);

  private final TestEngine engine = TestEngine.fresh();
  private final VoteLinks links = new VoteLinks(KEY);
  private final List<Long> planTextShown = new ArrayList<>();
  private final VoteDesk desk =
      new VoteDesk(
          links,
          engine.castVote,
          engine.votes,
          engine.executions,
          engine.deployments,
          execution -> {
            planTextShown.add(execution.id());
            return "Plan: 1 to add (" + execution.unit() + ")";
          },
          execution -> Optional.empty(),
          Clock.fixed(NOW, ZoneOffset.UTC));

  /**
   * A running, planned execution of {@code unitId} voted on by {@code voters}; two approvals or one
   * rejection decide.
   */
  private Execution running(String unitId, List<String> voters) {
    Accounts accounts = SyntheticDeployments.accounts(1, voters, 2, 1);
    long id =
        engine
            .create
            .create(command(1, accounts, List.of(unit(unitId, "account-0", 0, List.of()))))
            .deployment()
            .id();
    Execution execution = engine.release.release(id).get(0);
    engine.executions.recordPlan(
        execution.id(), "plans/x.tfplan", "ab".repeat(32), new PlanSummary(1, 0, 0, List.of()));
    return execution;
  }

  private Execution dns() {
    return running("account-0/dns", List.of(ALICE, BOB, CAROL));
  }

  private String token(Execution execution, String voter, Vote.Choice choice) {
    return links.token(new VoteLinks.Ballot(execution.id(), voter, choice, EXPIRES));
  }

  private List<Vote> history(Execution execution) {
    return engine.votes.history(execution.id());
  }

  @Test
  void aGetShowsTheConfirmPageAndRecordsNothing() {
    Execution dns = dns();
    String token = token(dns, ALICE, Vote.Choice.APPROVE);

    VoteDesk.Page first = desk.confirm(token);
    VoteDesk.Page second = desk.confirm(token);

    assertThat(first.status()).isEqualTo(200);
    assertThat(first.html())
        .contains(
            "<title>livegate: Approve account-0/dns?</title>",
            "<code id=\"unit\">account-0/dns</code>",
            "<td>" + ALICE + "</td>",
            "1 to add, 0 to change, 0 to destroy",
            "<form method=\"post\" action=\"/vote\">",
            "<input type=\"hidden\" name=\"t\" value=\"" + token + "\">",
            "<pre id=\"plan\">Plan: 1 to add (account-0/dns)</pre>");
    assertThat(first.decided()).isEmpty();
    assertThat(second).isEqualTo(first);
    assertThat(history(dns)).isEmpty();
    assertThat(engine.executions.find(dns.id()).orElseThrow().decision()).isNull();
  }

  @Test
  void theConfirmPageSaysHowTheVoteIsDecidedWhichCommitItIsAndWhenTheLinkExpires() {
    Execution dns = dns();
    String merge =
        engine.deployments.find(dns.deploymentId()).orElseThrow().pullRequest().mergeCommit();

    VoteDesk.Page page = desk.confirm(token(dns, ALICE, Vote.Choice.APPROVE));

    assertThat(page.html())
        .contains(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<td id=\"quorum\">2 approvals or 1 rejection from: "
                + ALICE
                + ", "
                + BOB
                + ", "
                + CAROL
                + "</td>",
            "<td id=\"commit\"><code>"
                + merge.substring(0, Math.min(12, merge.length()))
                + "</code> of ",
            "<td id=\"expires\">" + EXPIRES + "</td>");
  }

  @Test
  void thePlanIsShownAsAColouredDiff() {
    assertThat(
            io.livegate.core.Html.planDiff(
                "  # a will be created\n  + resource \"a\" {\n  - old = 1\n  ~ b = 2\nPlan: <1>"))
        .isEqualTo(
            "  # a will be created\n"
                + "<span class=\"add\">  + resource &quot;a&quot; {</span>\n"
                + "<span class=\"del\">  - old = 1</span>\n"
                + "<span class=\"chg\">  ~ b = 2</span>\n"
                + "Plan: &lt;1&gt;");
  }

  @Test
  void theResultPageNamesTheUnitAndItsDeployment() {
    Execution dns = dns();

    VoteDesk.Page page = desk.record(token(dns, ALICE, Vote.Choice.APPROVE), "");

    assertThat(page.html())
        .contains(
            "<p id=\"voted-unit\">Unit <code>account-0/dns</code> of deployment "
                + dns.deploymentId()
                + ".</p>");
  }

  @Test
  void theConfirmPageOfADestroySaysDestroyPlainlyAndListsTheResources() {
    Accounts accounts = SyntheticDeployments.accounts(1, List.of(ALICE), 1, 1);
    DeployStack stack =
        new DeployStack(
            ScanMode.GRAPH,
            "base-7",
            "merge-7",
            List.of(new AccountOrder("account-0", "account-0", List.of())),
            List.of(),
            List.of(
                new DeletedUnit(
                    "account-0/queue",
                    "account-0",
                    List.of(new Reason(Reason.Kind.DELETED_FILE, "account-0/queue/main.tf", null)),
                    List.of(),
                    List.of(),
                    true)),
            List.of(),
            List.of());
    long id =
        engine.create.create(Scenarios.command(stack, accounts, 7, "base-7")).deployment().id();
    Execution destroy = engine.release.release(id).get(0);
    engine.executions.recordPlan(
        destroy.id(),
        "plans/q.tfplan",
        "cd".repeat(32),
        new PlanSummary(0, 0, 1, List.of(), List.of("aws_sqs_queue.jobs")));

    VoteDesk.Page page = desk.confirm(token(destroy, ALICE, Vote.Choice.APPROVE));

    assertThat(destroy.destroy()).isTrue();
    assertThat(page.html())
        .contains(
            "<title>livegate: Approve destroying account-0/queue?</title>",
            "<td id=\"action\"><b>DESTROY: this unit was deleted from the repository;"
                + " approving destroys all its resources</b></td>",
            "<li><code>aws_sqs_queue.jobs</code></li>");
  }

  @Test
  void theConfirmPageOfADriftReconcileSaysItIsADriftReconcile() {
    Accounts accounts = SyntheticDeployments.accounts(1, List.of(ALICE), 1, 1);
    DeployStack stack =
        SyntheticDeployments.stack(
            "merge-8",
            "merge-8",
            accounts,
            List.of(unit("account-0/app", "account-0", 0, List.of())));
    long id =
        engine
            .create
            .create(
                new CreateDeploymentCommand(
                    MergedPullRequest.reconcile(Scenarios.REPOSITORY, "main", "merge-8", "run-1"),
                    stack,
                    accounts,
                    RunnerArgv.TERRAFORM))
            .deployment()
            .id();
    Execution app = engine.release.release(id).get(0);
    engine.executions.recordPlan(
        app.id(), "plans/a.tfplan", "ef".repeat(32), new PlanSummary(0, 1, 0, List.of()));

    VoteDesk.Page page = desk.confirm(token(app, ALICE, Vote.Choice.APPROVE));

    assertThat(page.html())
        .contains(
            "<title>livegate: Approve (drift reconcile) account-0/app?</title>",
            "<td id=\"reconcile\"><b>DRIFT RECONCILE: this unit&#39;s resources changed outside")
        .doesNotContain("id=\"action\"");
  }

  @Test
  void theConfirmPageOfAMergeSaysNothingOfAReconcile() {
    assertThat(desk.confirm(token(dns(), ALICE, Vote.Choice.APPROVE)).html())
        .doesNotContain("reconcile");
  }

  @Test
  void aPostRecordsTheVoteAndSaysItDidNotDecideYet() {
    Execution dns = dns();

    VoteDesk.Page page = desk.record(token(dns, ALICE, Vote.Choice.APPROVE), "");

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.html())
        .contains("Your approve is recorded (1 approvals, 0 rejections).")
        .doesNotContain("decided");
    assertThat(page.decided()).isEmpty();
    assertThat(engine.votes.votes(dns.id()))
        .extracting(Vote::voter, Vote::choice)
        .containsExactly(tuple(ALICE, Vote.Choice.APPROVE));
    assertThat(planTextShown).isEmpty();
  }

  @Test
  void theDecidingVoteIsReportedExactlyOnceAndLaterVotesAreAlreadyDecided() {
    Execution dns = dns();
    desk.record(token(dns, ALICE, Vote.Choice.APPROVE), "");
    String bobsLink = token(dns, BOB, Vote.Choice.APPROVE);

    VoteDesk.Page deciding = desk.record(bobsLink, "");
    VoteDesk.Page replayed = desk.record(bobsLink, "");
    VoteDesk.Page late = desk.record(token(dns, CAROL, Vote.Choice.REJECT), "");
    VoteDesk.Page lateConfirm = desk.confirm(token(dns, CAROL, Vote.Choice.REJECT));

    assertThat(deciding.status()).isEqualTo(200);
    assertThat(deciding.decided()).contains(new VoteDesk.Decided(dns.id(), Decision.APPROVED));
    assertThat(deciding.html()).contains("It decided the vote: <b>approved</b>.");
    for (VoteDesk.Page refused : List.of(replayed, late)) {
      assertThat(refused.status()).isEqualTo(409);
      assertThat(refused.decided()).isEmpty();
      assertThat(refused.html())
          .contains(
              "<title>livegate: Already decided</title>",
              "already decided: <b>approved</b>. Your vote was not counted.");
    }
    assertThat(lateConfirm.status()).isEqualTo(409);
    assertThat(lateConfirm.html()).doesNotContain("<form");
    assertThat(history(dns)).extracting(Vote::voter).containsExactly(ALICE, BOB);
    assertThat(engine.executions.find(dns.id()).orElseThrow().decision()).isEqualTo("approved");
  }

  @Test
  void oneRejectionDecidesWhenOneRejectionIsEnough() {
    Execution dns = dns();

    VoteDesk.Page page = desk.record(token(dns, CAROL, Vote.Choice.REJECT), "");

    assertThat(page.decided()).contains(new VoteDesk.Decided(dns.id(), Decision.REJECTED));
    assertThat(page.html()).contains("Your reject is recorded (0 approvals, 1 rejections).");
  }

  @Test
  void aForgedLinkIsRefusedWith403AndRecordsNothing() {
    Execution dns = dns();
    String genuine = token(dns, ALICE, Vote.Choice.APPROVE);
    String otherKey =
        new VoteLinks("another installation's key, 32 bytes long".getBytes(StandardCharsets.UTF_8))
            .token(new VoteLinks.Ballot(dns.id(), ALICE, Vote.Choice.APPROVE, EXPIRES));
    // Bob's signature on Alice's ballot: a link moved to another voter.
    String bobs = token(dns, BOB, Vote.Choice.APPROVE);
    String moved = genuine.substring(0, genuine.indexOf('.')) + bobs.substring(bobs.indexOf('.'));
    // The signature's first character carries six bits of the MAC (its last one partly padding).
    int signature = genuine.indexOf('.') + 1;
    String flipped =
        genuine.substring(0, signature)
            + (genuine.charAt(signature) == 'A' ? 'B' : 'A')
            + genuine.substring(signature + 1);
    List<String> forged =
        new ArrayList<>(List.of(otherKey, moved, flipped, "not-a-token", "a.b.c", "", ".x"));
    forged.add(null);

    for (String token : forged) {
      for (VoteDesk.Page page : List.of(desk.confirm(token), desk.record(token, ""))) {
        assertThat(page.status()).as("token %s", token).isEqualTo(403);
        assertThat(page.html()).contains("Invalid link", "No vote was recorded.");
        assertThat(page.decided()).isEmpty();
      }
    }
    assertThat(history(dns)).isEmpty();
  }

  @Test
  void anExpiredLinkIsRefusedWith410AndRecordsNothing() {
    Execution dns = dns();
    String expired =
        links.token(
            new VoteLinks.Ballot(dns.id(), ALICE, Vote.Choice.APPROVE, NOW.minusSeconds(1)));

    VoteDesk.Page confirm = desk.confirm(expired);
    VoteDesk.Page record = desk.record(expired, "");

    for (VoteDesk.Page page : List.of(confirm, record)) {
      assertThat(page.status()).isEqualTo(410);
      assertThat(page.html())
          .contains("Expired link", "expired at " + NOW.minusSeconds(1), "No vote was recorded.");
      assertThat(page.decided()).isEmpty();
    }
    assertThat(history(dns)).isEmpty();
  }

  @Test
  void aSignedLinkOfSomeoneWhoIsNotAVoterIsRefusedWith403AndRecordsNothing() {
    Execution dns = dns();
    String mallorys = token(dns, MALLORY, Vote.Choice.APPROVE);

    VoteDesk.Page confirm = desk.confirm(mallorys);
    VoteDesk.Page record = desk.record(mallorys, "");

    for (VoteDesk.Page page : List.of(confirm, record)) {
      assertThat(page.status()).isEqualTo(403);
      assertThat(page.html())
          .contains("Not a voter", MALLORY + " is not a voter for this unit.")
          .doesNotContain("<form");
      assertThat(page.decided()).isEmpty();
    }
    assertThat(history(dns)).isEmpty();
  }

  @Test
  void aLinkToAnExecutionThatIsNotOpenForVotesRecordsNothing() {
    dns();
    String nowhere =
        links.token(new VoteLinks.Ballot(999_999, ALICE, Vote.Choice.APPROVE, EXPIRES));

    VoteDesk.Page confirm = desk.confirm(nowhere);
    VoteDesk.Page record = desk.record(nowhere, "");

    assertThat(confirm.status()).isEqualTo(404);
    assertThat(confirm.html()).contains("Unknown execution");
    assertThat(record.status()).isEqualTo(409);
    assertThat(record.html()).contains("Not open for votes", "No vote was recorded.");
    assertThat(record.decided()).isEmpty();
    assertThat(engine.votes.history(999_999)).isEmpty();
  }

  @Test
  void hostileUnitVoterAndPlanStringsAreEscaped() {
    String unit = "account-0/<script>alert('unit')</script>";
    String voter = "\"><img src=x onerror=alert(1)>@example.com";
    Execution hostile = running(unit, List.of(voter));
    String outsider = "<b onmouseover=alert(2)>eve</b>";

    VoteDesk.Page confirm = desk.confirm(token(hostile, voter, Vote.Choice.APPROVE));
    VoteDesk.Page notAVoter = desk.record(token(hostile, outsider, Vote.Choice.APPROVE), "");

    assertThat(confirm.status()).isEqualTo(200);
    assertThat(confirm.html())
        .contains(
            "account-0/&lt;script&gt;alert(&#39;unit&#39;)&lt;/script&gt;",
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.com",
            "Plan: 1 to add (account-0/&lt;script&gt;")
        .doesNotContain("<script", "<img", "alert('unit')");
    assertThat(notAVoter.status()).isEqualTo(403);
    assertThat(notAVoter.html())
        .contains("&lt;b onmouseover=alert(2)&gt;eve&lt;/b&gt; is not a voter")
        .doesNotContain("<b onmouseover");
    assertThat(history(hostile)).isEmpty();
    assertThat(engine.executions.find(hostile.id()).orElseThrow().decision()).isNull();
  }
}
