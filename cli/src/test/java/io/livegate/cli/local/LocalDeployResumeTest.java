package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.core.flow.FlowState;
import io.livegate.core.testing.FlowPath;
import io.livegate.process.TerraformState;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code livegate deploy} in its own JVM, killed with SIGKILL while units wait for votes, then
 * {@code livegate resume} in a new JVM: the deployment finishes and nothing is applied twice.
 */
@Tag("terraform")
@Tag("crash")
class LocalDeployResumeTest {
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();
  private Path state;

  @Test
  void aDeploymentKilledWhileWaitingForVotesIsResumedWithoutApplyingAnythingTwice()
      throws Exception {
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    state = dir.resolve("state");
    Path outbox = state.resolve("outbox");
    Path deployLog = dir.resolve("deploy.log");
    Process deploy = deploy(repo, deployLog, "--parallelism", "2");

    // Approve global, then baz but not doo; bar is released once baz is applied.
    approveWhenAsked(outbox, LiveRepos.DEV_GLOBAL, deploy, deployLog);
    approveWhenAsked(outbox, LiveRepos.DEV_BAZ, deploy, deployLog);
    ChildJvm.await(
        () -> ChildJvm.read(deployLog).contains("[" + LiveRepos.DEV_BAR + "] Decide"),
        "bar waits for votes",
        deploy,
        deployLog);
    assertThat(ChildJvm.read(deployLog)).contains("[" + LiveRepos.DEV_DOO + "] Decide");
    ChildJvm.await(
        () -> postmasterPid().isPresent(), "postmaster.pid names the server", deploy, deployLog);
    long leftoverServer = postmasterPid().orElseThrow();
    Map<String, String> globalIds = TerraformState.ids(repo.root().resolve(LiveRepos.DEV_GLOBAL));
    Map<String, String> bazIds = TerraformState.ids(repo.root().resolve(LiveRepos.DEV_BAZ));

    deploy.destroyForcibly().waitFor();
    assertThat(ProcessHandle.of(leftoverServer).filter(ProcessHandle::isAlive))
        .as("the killed run leaves its PostgreSQL server running")
        .isPresent();

    Path resumeLog = dir.resolve("resume.log");
    Process resume = resume(resumeLog, "--auto-approve", "--parallelism", "2");
    ChildJvm.awaitExit(resume, resumeLog);

    assertThat(resume.exitValue()).as(ChildJvm.read(resumeLog)).isZero();
    assertThat(ProcessHandle.of(leftoverServer).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(ChildJvm.read(resumeLog))
        .contains("[" + LiveRepos.DEV_BAR + "] resuming after an interruption")
        .contains("[" + LiveRepos.DEV_DOO + "] resuming after an interruption")
        .contains("deployment 1: succeeded");

    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    for (Execution execution : recorded.executions()) {
      List<String> events = recorded.events(execution);
      assertThat(execution.status()).as(execution.unit()).isEqualTo(ExecutionStatus.SUCCEEDED);
      assertThat(events)
          .as(execution.unit())
          .filteredOn(event -> event.startsWith("Succeeded: applied"))
          .hasSize(1);
      FlowPath.requireComplete(events, FlowState.SUCCEEDED);
    }
    assertThat(recorded.events(recorded.execution(LiveRepos.DEV_BAR))).contains("Decide: resumed");
    assertThat(TerraformState.ids(repo.root().resolve(LiveRepos.DEV_GLOBAL))).isEqualTo(globalIds);
    assertThat(TerraformState.ids(repo.root().resolve(LiveRepos.DEV_BAZ))).isEqualTo(bazIds);
    assertThat(TerraformState.resources(repo.root().resolve(LiveRepos.DEV_FOO)))
        .containsOnlyKeys("terraform_data.foo");
  }

  @Test
  void aVoteLinkFromTheDeadRunIsRefusedByTheResumedRunWhichAsksTheVotersAgain() throws Exception {
    TestRepo repo = LiveRepos.devAccountChange(dir.resolve("live"));
    state = dir.resolve("state");
    Path outbox = state.resolve("outbox");
    Path deployLog = dir.resolve("deploy.log");
    Process deploy = deploy(repo, deployLog);
    ChildJvm.await(
        () -> mails(outbox, LiveRepos.DEV_GLOBAL).size() == 1,
        "global asks for votes",
        deploy,
        deployLog);
    // what a local user who bound the dead run's port takes from a voter who opened the link
    SentMail captured = mails(outbox, LiveRepos.DEV_GLOBAL).get(0);
    deploy.destroyForcibly().waitFor();

    Path resumeLog = dir.resolve("resume.log");
    Process resume = resume(resumeLog);
    // the outbox keeps one mail per execution and voter: the new request replaces the old one
    ChildJvm.await(
        () -> fresh(outbox, captured).isPresent(),
        "the resumed run asks global's voters again",
        resume,
        resumeLog);
    SentMail fresh = fresh(outbox, captured).orElseThrow();
    String resumedServer = fresh.approveLink().substring(0, fresh.approveLink().indexOf('?'));
    String stolen =
        resumedServer + captured.approveLink().substring(captured.approveLink().indexOf('?'));

    String stolenAnswer = VoteClient.confirm(stolen).body();
    String voterAnswer = VoteClient.confirm(fresh.approveLink()).body();

    System.out.println("the dead run's link: " + captured.approveLink());
    System.out.println("its token cast on the resumed run (" + stolen + "):\n" + stolenAnswer);
    assertThat(stolenAnswer).contains("Invalid link", "No vote was recorded.");
    assertThat(voterAnswer)
        .as("the voter's new link, after the stolen one was refused")
        .contains("It decided the vote");
  }

  /** The vote request that came after {@code captured}, to the same voter on the same unit. */
  private static Optional<SentMail> fresh(Path outbox, SentMail captured) {
    return mails(outbox, captured.unit()).stream()
        .filter(mail -> mail.voter().equals(captured.voter()))
        .filter(mail -> !mail.approveLink().equals(captured.approveLink()))
        .findFirst();
  }

  private static List<SentMail> mails(Path outbox, String unit) {
    return Files.isDirectory(outbox)
        ? SentMail.in(outbox).stream().filter(mail -> mail.unit().equals(unit)).toList()
        : List.of();
  }

  /**
   * Stops what a test leaves behind, the JVMs it started and a killed run's server, and waits for
   * them to end: the temp directory is deleted next, and a server still shutting down writes into
   * it (on a loaded machine the deletion failed on {@code state/metadb/pg_wal}).
   */
  @AfterEach
  void stopLeftovers() throws Exception {
    for (Process process : started) {
      process.destroyForcibly().waitFor();
    }
    if (state != null) {
      Optional<ProcessHandle> server = postmasterPid().flatMap(ProcessHandle::of);
      if (server.isPresent()) {
        server.get().destroy();
        server.get().onExit().get(ChildJvm.STUCK.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /**
   * {@code livegate deploy} of {@code repo}'s last commit into {@link #state}, on any free port.
   */
  private Process deploy(TestRepo repo, Path log, String... more) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "deploy",
                "--repo",
                repo.root().toString(),
                "--base",
                "HEAD~1",
                "--runner",
                "terraform",
                "--port",
                "0",
                "--state-dir",
                state.toString()));
    args.addAll(List.of(more));
    return livegate(log, args.toArray(String[]::new));
  }

  /** {@code livegate resume} of {@link #state}, on any free port. */
  private Process resume(Path log, String... more) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "resume", "--runner", "terraform", "--port", "0", "--state-dir", state.toString()));
    args.addAll(List.of(more));
    return livegate(log, args.toArray(String[]::new));
  }

  /** Starts {@code livegate} in a new JVM with this test's classpath, output to {@code log}. */
  private Process livegate(Path log, String... args) throws IOException {
    Process process = ChildJvm.livegate(log, List.of(args));
    started.add(process);
    return process;
  }

  private static void approveWhenAsked(Path outbox, String unit, Process deploy, Path deployLog)
      throws Exception {
    ChildJvm.await(
        () ->
            Files.isDirectory(outbox)
                && SentMail.in(outbox).stream().anyMatch(m -> m.unit().equals(unit)),
        unit + " asks for votes",
        deploy,
        deployLog);
    SentMail mail =
        SentMail.in(outbox).stream().filter(m -> m.unit().equals(unit)).findFirst().orElseThrow();
    assertThat(VoteClient.confirm(mail.approveLink()).body()).contains("It decided the vote");
  }

  private Optional<Long> postmasterPid() {
    Path pidFile = state.resolve("metadb").resolve("postmaster.pid");
    try {
      return Files.exists(pidFile)
          ? Optional.of(Long.parseLong(Files.readAllLines(pidFile).get(0).strip()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
