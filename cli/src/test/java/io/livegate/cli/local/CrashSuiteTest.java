package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.deploy.Deployment;
import io.livegate.core.deploy.DeploymentStatus;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.ExecutionStatus;
import io.livegate.process.SmallFileSystem;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code livegate deploy} stopped at seeded-random moments (kill -9, SIGINT, SIGTERM, SIGHUP), then
 * {@code livegate resume} until it finishes (or, when the stop came before the deployment was
 * stored, the same deploy again), itself killed once in some cases. Each stop waits for the log
 * line that marks its moment, and a case fails unless its stop really hit a running livegate: a
 * kill -9 leaves exit 137, a signal the drain's "stopping" line. Every unit's resource has a
 * provisioner that appends to an oracle file outside terraform's reach ({@link Oracle}), so the
 * oracle counts how often each apply really ran. After each case: the deployment succeeded, every
 * unit was applied exactly once, and nothing is left locked. The table of all cases is printed at
 * the end.
 */
@Tag("crash")
@Tag("terraform")
// The cases run side by side (src/test/resources/junit-platform.properties says how many): each
// has its own directories, state, ports and processes, and mostly waits on its child JVMs.
@org.junit.jupiter.api.parallel.Execution(ExecutionMode.CONCURRENT)
class CrashSuiteTest {
  private static final long SEED = 20261124L;
  private static final int KILLS = 20;

  /** The exit value of a process that SIGKILL ended: 128 plus the signal's number, 9. */
  private static final int KILLED = 128 + 9;

  private static final List<String> ACCOUNTS = List.of("shared", "dev");
  private static final List<String> UNITS = List.of("global", "net", "dns", "db", "app");

  /** Where a stop lands: scanning, queued, each flow step, recording an outcome, a release. */
  private static final List<String> TRIGGERS =
      List.of(
          "found 10 units",
          "units in",
          "] Plan",
          "] RequestApproval",
          "] Decide",
          "] Apply",
          "recorded ",
          "] released");

  /** A line of any unit entering a step of its flow. */
  private static final Pattern ANY_STEP =
      Pattern.compile("\\] (Plan|RequestApproval|Decide|Apply)$", Pattern.MULTILINE);

  private static final List<String> TABLE = Collections.synchronizedList(new ArrayList<>());

  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  /** One case: where the stop lands and how. */
  record Moment(String signal, String trigger, int unit, int delayMillis, boolean alsoInResume) {
    @Override
    public String toString() {
      if (!signal.equals("KILL")) {
        return signal + " during the apply of " + unitName(unit) + " (its provisioner held)";
      }
      return signal
          + " after '"
          + trigger
          + "'"
          + (trigger.startsWith("]") ? " of " + unitName(unit) : "")
          + " +"
          + delayMillis
          + " ms"
          + (alsoInResume ? ", and kill -9 in the first rerun" : "");
    }
  }

  static Stream<Arguments> moments() {
    Random random = new Random(SEED);
    List<Arguments> moments = new ArrayList<>();
    // Every kind of moment in turn, so each gets its share; where in it is random.
    for (int i = 0; i < KILLS; i++) {
      moments.add(
          Arguments.of(
              new Moment(
                  "KILL",
                  TRIGGERS.get(i % TRIGGERS.size()),
                  random.nextInt(ACCOUNTS.size() * UNITS.size()),
                  random.nextInt(400),
                  i % 5 == 4)));
    }
    for (String signal : List.of("INT", "TERM", "HUP")) {
      moments.add(Arguments.of(new Moment(signal, "] Apply", random.nextInt(10), 0, false)));
    }
    return moments.stream();
  }

  /** A file system the test mounted, unmounted after it. */
  private SmallFileSystem mounted;

  @AfterEach
  void stopLeftovers() throws Exception {
    started.forEach(Process::destroyForcibly);
    for (Process process : started) {
      process.waitFor();
    }
    if (mounted != null) {
      mounted.close();
    }
  }

  @AfterAll
  static void printTable() {
    System.out.println("moment | outcome | applies per unit");
    TABLE.forEach(System.out::println);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("moments")
  void aStoppedDeploymentIsResumedToTheEndWithEveryUnitAppliedOnce(Moment moment) throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path repo = writeRepo(dir.resolve("live"), oracle);
    Path state = dir.resolve("state");
    Path deployLog = dir.resolve("deploy.log");
    String trigger =
        moment.trigger().startsWith("]") ? unitName(moment.unit()) + moment.trigger() : null;
    Process deploy;
    if (moment.signal().equals("KILL")) {
      deploy = livegate(deployLog, deployArguments(repo, state));
      killWhen(
          deploy,
          deployLog,
          Pattern.compile(Pattern.quote(trigger == null ? moment.trigger() : trigger)),
          moment.delayMillis());
    } else {
      deploy = signalDuringApply(moment, oracle, repo, state, deployLog);
    }
    String outcome = "stopped";

    int resumes = 0;
    int exit = deploy.exitValue();
    boolean killResume = moment.alsoInResume() && exit != 0;
    while (exit != 0 && resumes < 5) {
      resumes++;
      Path log = dir.resolve("rerun-" + resumes + ".log");
      // A run stopped before it stored the deployment (during the scan) has nothing to resume:
      // the operator runs the same deploy again.
      Process rerun =
          Recorded.in(state).deployments().isEmpty()
              ? livegate(log, deployArguments(repo, state))
              : livegate(log, resumeArguments(state));
      if (killResume) {
        killResume = false;
        // Any unit's flow step: a resume need not plan at all (one killed at the last unit's
        // RequestApproval goes on from there), and a kill that waited for a Plan would never come.
        killWhen(rerun, log, ANY_STEP, 300);
        outcome += ", rerun killed";
      } else {
        ChildJvm.awaitExit(rerun, log);
      }
      exit = rerun.exitValue();
    }
    Map<String, Integer> applies = LiveRepos.oracleApplies(oracle);
    boolean eachOnce =
        applies.keySet().equals(Set.copyOf(allUnits()))
            && applies.values().stream().allMatch(count -> count == 1);
    TABLE.add(
        moment
            + " | "
            + outcome
            + ", "
            + resumes
            + " reruns, exit "
            + exit
            + " | "
            + (eachOnce ? "each of the 10 units once" : applies.toString()));

    assertThat(exit)
        .as("deploy or resume ends with exit 0:\n%s", ChildJvm.read(deployLog))
        .isZero();
    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(recorded.executions())
        .extracting(Execution::status)
        .containsOnly(ExecutionStatus.SUCCEEDED);
    assertThat(applies).as("every unit's apply ran once").hasSize(10).containsOnlyKeys(allUnits());
    assertThat(applies.values()).as("applies per unit: %s", applies).containsOnly(1);
    try (LocalWiring wiring = new LocalWiring(state)) {
      long locks =
          wiring
              .metadb
              .metadb()
              .jdbi()
              .withHandle(
                  handle ->
                      handle
                          .createQuery("SELECT count(*) FROM merge_locks")
                          .mapTo(Long.class)
                          .one());
      assertThat(locks).as("no merge lock is left").isZero();
    }
  }

  @Test
  void aPowerCutMidReplaceAfterItsDeleteWasPersistedAppliesTheCreateOnceAndSucceeds()
      throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path state = dir.resolve("state");
    TestRepo repo = appAtV1Deployed(oracle, state);
    startAndEndUnit(repo, "app/a", "v2", oracle);
    repo.commit("a at v2, which replaces its resource");

    Path log = dir.resolve("deploy-2.log");
    Process second = livegate(log, deployArguments(repo.root(), state));
    // The create's provisioner starts once terraform has deleted the old object and persisted that.
    ChildJvm.await(
        () -> ChildJvm.read(oracle).contains("start app/a v2"), "the create's start", second, log);
    PowerCut.cut(second.toHandle(), state.resolve("metadb"));
    assertThat(ChildJvm.read(oracle))
        .as("the power went while the replace was creating, after its delete")
        .contains("start app/a v2")
        .doesNotContain("end app/a v2");

    Path resumeLog = dir.resolve("resume.log");
    Process resume = livegate(resumeLog, resumeArguments(state));
    ChildJvm.awaitExit(resume, resumeLog);
    assertThat(resume.exitValue()).as("resume:\n%s", ChildJvm.read(resumeLog)).isZero();
    assertThat(Files.readAllLines(oracle))
        .as("the create, cut in its provisioner, is applied once more and once only")
        .containsExactly(
            "start app/a v1", "end app/a v1", "start app/a v2", "start app/a v2", "end app/a v2");
    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployments())
        .extracting(Deployment::status)
        .containsExactly(DeploymentStatus.SUCCEEDED, DeploymentStatus.SUCCEEDED);
    assertThat(recorded.executions())
        .extracting(Execution::status)
        .containsOnly(ExecutionStatus.SUCCEEDED);
  }

  @Test
  void aDeployKilledAtAFailingApplyHasThatApplyRunOnceAndResumeRecordsItsFailure()
      throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path state = dir.resolve("state");
    TestRepo repo = appAtV1Deployed(oracle, state);
    // A replace whose create fails once the test lets it: terraform taints the new object, and a
    // plan of what is left shows the same replace the voters approved.
    repo.write(
        "app/a/main.tf",
        "resource \"terraform_data\" \"unit\" {\n"
            + "  triggers_replace = \"v2\"\n"
            + "  provisioner \"local-exec\" {\n"
            + "    command = \""
            + Oracle.append(oracle, "start app/a v2")
            + "; exit 1\"\n"
            + "  }\n"
            + "}\n");
    repo.commit("a at v2, whose create fails");

    Path log = dir.resolve("deploy-2.log");
    // the create is held at its start until the deploy is killed
    try (Oracle.Hold started = Oracle.hold(oracle, "start app/a v2")) {
      Process second = livegate(log, deployArguments(repo.root(), state));
      ChildJvm.await(started::reached, "the create's start", second, log);
      second.destroyForcibly().waitFor();
      assertThat(second.exitValue())
          .as("kill -9 ended the deploy:\n%s", ChildJvm.read(log))
          .isEqualTo(KILLED);
      // terraform outlives the killed run and fails, once let go, with no livegate to record it.
    }

    Path resumeLog = dir.resolve("resume.log");
    Process resume = livegate(resumeLog, resumeArguments(state));
    ChildJvm.awaitExit(resume, resumeLog);
    assertThat(Files.readAllLines(oracle))
        .as(
            "the failed create ran once; resume did not apply it again:\n%s",
            ChildJvm.read(resumeLog))
        .containsExactly("start app/a v1", "end app/a v1", "start app/a v2");
    assertThat(resume.exitValue()).as("resume:\n%s", ChildJvm.read(resumeLog)).isNotZero();
    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployments())
        .extracting(Deployment::status)
        .containsExactly(DeploymentStatus.SUCCEEDED, DeploymentStatus.FAILED);
    Execution failed = recorded.executions().get(recorded.executions().size() - 1);
    assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(String.join("\n", recorded.events(failed)))
        .contains("the interrupted apply had failed", "local-exec provisioner error");
  }

  @Test
  void aStateDirectoryWhoseDiskFillsMidDeployIsLeftResumableAndResumeAfterFreeingSpaceFinishes()
      throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path repo = writeRepo(dir.resolve("live"), oracle);
    Path state = smallFileSystem(dir.resolve("state"));
    Path log = dir.resolve("deploy.log");
    Process deploy = livegate(log, deployArguments(repo, state));
    ChildJvm.await(
        () -> ChildJvm.read(log).contains("[dev/global] Plan"), "dev/global's plan", deploy, log);
    Path filler = state.resolve("filler");
    mounted.fill(filler);
    ChildJvm.awaitExit(deploy, log);
    String stopped = ChildJvm.read(log);
    assertThat(deploy.exitValue()).as("the deploy stopped:\n%s", stopped).isNotZero();
    assertThat(stopped)
        .as("the deploy says what ran out and where, without a stack trace")
        .contains("ran out of disk space", state.toString())
        .contains("To finish deployment 1, run:\n  livegate resume --state-dir ")
        .doesNotContain("\tat ", "Exception");
    Files.delete(filler);
    assertThat(Recorded.in(state).executions())
        .extracting(Execution::status)
        .as("no unit was recorded failed for the full disk:\n%s", stopped)
        .doesNotContain(ExecutionStatus.FAILED);

    Path resumeLog = dir.resolve("resume.log");
    Process resume = livegate(resumeLog, resumeArguments(state));
    ChildJvm.awaitExit(resume, resumeLog);
    assertThat(resume.exitValue()).as("resume:\n%s", ChildJvm.read(resumeLog)).isZero();
    Recorded recorded = Recorded.in(state);
    assertThat(recorded.deployment().status()).isEqualTo(DeploymentStatus.SUCCEEDED);
    assertThat(recorded.executions())
        .extracting(Execution::status)
        .containsOnly(ExecutionStatus.SUCCEEDED);
    Map<String, Integer> applies = LiveRepos.oracleApplies(oracle);
    assertThat(applies).as("every unit's apply ran once").containsOnlyKeys(allUnits());
    assertThat(applies.values()).as("applies per unit: %s", applies).containsOnly(1);
  }

  @Test
  void aServeWhoseDiskFillsRetriesTheDeploymentAndFinishesItOnceSpaceIsFreed() throws Exception {
    // No retries on other errors: a resource running out is retried until it is freed.
    ServedMerge served = aAndBServed(smallFileSystem(dir.resolve("state")), "--retry-limit", "0");

    try (ServeProcess serve = served.startAndDeliver()) {
      serve.awaitLine("[app/b] Plan");
      Path filler = served.state().resolve("filler");
      mounted.fill(filler);
      serve.awaitLine("retrying deployment 1 in ");
      assertThat(serve.log()).contains("ran out of disk space").doesNotContain("\tat ");
      Files.delete(filler);
      serve.awaitLine(served.merge() + ": success (deployment");
    }

    served.assertAppliedOnceAndSucceeded("each apply ran once");
  }

  @Test
  void aServeWhoseDiskFillsAsAnApplyEndsNeverAppliesThatUnitAgain() throws Exception {
    Path oracle = dir.resolve("oracle.log");
    Path state = smallFileSystem(dir.resolve("state"));
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    String empty = repo.commit("empty");
    startAndEndUnit(repo, "app/a", "v1", oracle);
    // b's provisioner fills the disk of serve's workspace once its own lines are posted: terraform
    // created b's resource but cannot save the state, which lives in that workspace.
    startAndEndUnit(
        repo, "app/b", "v1", oracle, "; dd if=/dev/zero of=filler bs=1M 2>/dev/null; true");
    String merge = repo.commit("a and b");
    List<String> arguments =
        ServeProcess.oneAccount(dir, repo.root(), state, "--auto-approve", "--parallelism", "1");

    try (ServeProcess serve = ServeProcess.start(arguments)) {
      serve.deliver(ServeProcess.merged(10, merge, empty), "delivery-10");
      serve.awaitLine("retrying deployment 1 in ");
      assertThat(serve.log()).contains("ran out of disk space");
      // b's provisioner wrote it in the apply's copy of the checkout, which the failed apply may
      // have deleted already; find tolerates that.
      new ProcessBuilder("find", state.toString(), "-name", "filler", "-delete")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
      assertThat(Files.getFileStore(state).getUsableSpace()).isPositive();
      // Until the deployment ends, or b's provisioner runs again (and fills the disk again).
      serve.await(
          () ->
              serve.log().contains("deployment 1 failed")
                  || serve.log().contains("deployment 1 succeeded")
                  || ChildJvm.read(oracle).split("start app/b").length > 2,
          "the deployment's end or a second apply of b");
    }

    assertThat(Files.readAllLines(oracle))
        .as("b's apply ran once: its resource exists, whatever the lost state says")
        .containsExactly("start app/a v1", "end app/a v1", "start app/b v1", "end app/b v1");
    Recorded recorded = Recorded.in(state);
    Execution b =
        recorded.executions().stream().filter(e -> e.unit().equals("app/b")).findFirst().get();
    assertThat(b.status()).isEqualTo(ExecutionStatus.FAILED);
    assertThat(String.join("\n", recorded.events(b)))
        .contains("terraform_data.unit: create", "terraform reported", "not applied again");
  }

  /** Mounts a small file system at {@code directory} for the test to fill, unmounted after it. */
  private Path smallFileSystem(Path directory) throws Exception {
    mounted = SmallFileSystem.mount(directory, "300m");
    return directory;
  }

  @Test
  void aServeStoppedBySigtermMidApplyLetsTheApplyFinishAndItsRestartRepeatsNothing()
      throws Exception {
    ServedMerge served = aAndBServed(dir.resolve("state"), "--grace-period", "PT60S");

    try (ServeProcess serve = served.startAndDeliver()) {
      serve.await(() -> ChildJvm.read(served.oracle()).contains("start app/a v1"), "a's apply");
      int exit = serve.signalAndAwaitExit("TERM");
      assertThat(ChildJvm.read(served.oracle()))
          .as("the signal came mid-apply, and the apply finished within the grace period")
          .contains("start app/a v1", "end app/a v1")
          .doesNotContain("app/b");
      assertThat(exit).as(serve.log()).isZero();
      assertThat(serve.log()).contains("SIGTERM: stopping").doesNotContain("failed");
    }
    try (ServeProcess restarted = ServeProcess.start(served.arguments())) {
      restarted.awaitLine(served.merge() + ": success (deployment");
    }

    served.assertAppliedOnceAndSucceeded("each apply ran once; the restart repeated nothing");
  }

  @Test
  void aServeKilledDuringAPlanFinishesTheDeploymentAfterOneRestart() throws Exception {
    ServedMerge served = aAndBServed(dir.resolve("state"));

    try (ServeProcess serve = served.startAndDeliver()) {
      serve.awaitLine("[app/a] Plan");
      assertThat(serve.kill())
          .as("kill -9 ended serve during a's plan:\n%s", serve.log())
          .isEqualTo(KILLED);
    }
    // What a kill inside git's checkout of the workspace leaves, as in the fault injection that
    // found this: that moment is too short to hit by waiting for a line, so the test leaves it.
    Path indexLock = served.state().resolve("workspace/.git/index.lock");
    Files.writeString(indexLock, "");
    try (ServeProcess restarted = ServeProcess.start(served.arguments())) {
      restarted.awaitLine(served.merge() + ": success (deployment");
      assertThat(restarted.log()).contains("removed " + indexLock);
    }

    served.assertAppliedOnceAndSucceeded("each apply ran once");
  }

  /** A repository of one account, app, whose unit app/a is deployed at v1 into {@code state}. */
  private TestRepo appAtV1Deployed(Path oracle, Path state) throws Exception {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("livegate.hcl", "account \"apps\" {\n  path = \"app\"\n}\n");
    repo.commit("accounts");
    startAndEndUnit(repo, "app/a", "v1", oracle);
    repo.commit("a at v1");
    Path firstLog = dir.resolve("deploy-1.log");
    Process first = livegate(firstLog, deployArguments(repo.root(), state));
    ChildJvm.awaitExit(first, firstLog);
    assertThat(first.exitValue()).as(ChildJvm.read(firstLog)).isZero();
    return repo;
  }

  /**
   * A serve case's merge: a repository of one account whose merge (after an empty first commit)
   * adds the units app/a and app/b at v1, and serve's arguments for it, with {@code state}.
   */
  private record ServedMerge(
      Path oracle, Path state, String empty, String merge, List<String> arguments) {
    /** Starts serve and delivers the merge. */
    ServeProcess startAndDeliver() throws Exception {
      ServeProcess serve = ServeProcess.start(arguments);
      try {
        serve.deliver(ServeProcess.merged(10, merge, empty), "delivery-10");
        return serve;
      } catch (Exception | AssertionError e) {
        serve.close();
        throw e;
      }
    }

    void assertAppliedOnceAndSucceeded(String why) throws IOException {
      assertThat(Files.readAllLines(oracle))
          .as(why)
          .containsExactly("start app/a v1", "end app/a v1", "start app/b v1", "end app/b v1");
      assertThat(Recorded.in(state).executions())
          .extracting(Execution::status)
          .containsOnly(ExecutionStatus.SUCCEEDED);
    }
  }

  /** Serve with {@code --auto-approve --parallelism 1} and {@code options}; see ServedMerge. */
  private ServedMerge aAndBServed(Path state, String... options) throws Exception {
    Path oracle = dir.resolve("oracle.log");
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    String empty = repo.commit("empty");
    startAndEndUnit(repo, "app/a", "v1", oracle);
    startAndEndUnit(repo, "app/b", "v1", oracle);
    String merge = repo.commit("a and b");
    List<String> arguments = new ArrayList<>(List.of("--auto-approve", "--parallelism", "1"));
    arguments.addAll(List.of(options));
    return new ServedMerge(
        oracle,
        state,
        empty,
        merge,
        ServeProcess.oneAccount(dir, repo.root(), state, arguments.toArray(String[]::new)));
  }

  private static String[] resumeArguments(Path state) {
    return new String[] {
      "resume",
      "--runner",
      "terraform",
      "--auto-approve",
      "--port",
      "0",
      "--parallelism",
      "2",
      "--state-dir",
      state.toString()
    };
  }

  /**
   * Writes {@code unit} as one resource at {@code version} whose create provisioner logs "start
   * UNIT VERSION", takes a moment, then logs "end UNIT VERSION": a cut in between shows in the
   * oracle as a start without its end.
   */
  private static void startAndEndUnit(TestRepo repo, String unit, String version, Path oracle) {
    startAndEndUnit(repo, unit, version, oracle, "");
  }

  /** The same unit, whose provisioner runs the shell text {@code after} once it logged its end. */
  private static void startAndEndUnit(
      TestRepo repo, String unit, String version, Path oracle, String after) {
    String line = unit + " " + version;
    LiveRepos.provisionedUnit(
        repo,
        unit,
        version,
        Oracle.append(oracle, "start " + line)
            + "; sleep 2; "
            + Oracle.append(oracle, "end " + line)
            + after);
  }

  private static String[] deployArguments(Path repo, Path state) {
    return new String[] {
      "deploy",
      "--repo",
      repo.toString(),
      "--base",
      "HEAD~1",
      "--accounts",
      repo.resolve("livegate.hcl").toString(),
      "--runner",
      "terraform",
      "--auto-approve",
      "--port",
      "0",
      "--parallelism",
      "2",
      "--grace-period",
      "PT20S",
      "--state-dir",
      state.toString()
    };
  }

  /**
   * The suite's own guard: a kill that comes after the run ended, whether its trigger showed or
   * not, fails the case rather than passing it without a crash; a signal case waits for its held
   * provisioner and then for the drain's line, which fail the same way when the run ends first.
   */
  @Test
  void aCaseWhoseRunEndsBeforeItsStopFails() throws Exception {
    Path log = dir.resolve("help.log");
    Process ended = livegate(log, "--help");
    ChildJvm.awaitExit(ended, log);
    Pattern shown = Pattern.compile("Usage: livegate");

    assertThatThrownBy(() -> killWhen(ended, log, shown, 0))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("kill -9 ended it");
    // what a signal case waits for (its held provisioner, the drain's line) fails the same way
    assertThatThrownBy(() -> killWhen(ended, log, Pattern.compile("never shown"), 0))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the run ended (exit 0) before 'never shown'");
  }

  /**
   * Deploys, and sends the moment's signal while its unit's apply runs: the unit's provisioner is
   * held ({@link Oracle#hold}) until the signal was sent, so the signal cannot come after the run
   * ended however slowly a loaded machine runs the test; then the drain lets the apply finish.
   */
  private Process signalDuringApply(Moment moment, Path oracle, Path repo, Path state, Path log)
      throws Exception {
    Process run;
    try (Oracle.Hold hold = Oracle.hold(oracle, unitName(moment.unit()))) {
      run = livegate(log, deployArguments(repo, state));
      ChildJvm.await(hold::reached, unitName(moment.unit()) + "'s provisioner", run, log);
      new ProcessBuilder("kill", "-" + moment.signal(), Long.toString(run.pid())).start().waitFor();
      ChildJvm.await(
          () -> ChildJvm.read(log).contains(stopping(moment.signal())),
          "the drain hearing SIG" + moment.signal(),
          run,
          log);
    }
    // The grace period (20 s) bounds the drain; the wait is for its end, however long it takes.
    ChildJvm.awaitExit(run, log);
    if (run.exitValue() != 0) {
      assertThat(ChildJvm.read(log))
          .contains("To finish deployment 1, run:\n  livegate resume --state-dir ");
    }
    return run;
  }

  private static String stopping(String signal) {
    return signal.equals("INT") ? "Ctrl-C: stopping" : "SIG" + signal + ": stopping";
  }

  /**
   * Waits for {@code trigger} in the log, then kills the run with kill -9 {@code delayMillis}
   * later, and fails unless the kill hit the run while it ran: a run that ended before its trigger
   * or its delay would make a case without a crash.
   */
  private static void killWhen(Process run, Path log, Pattern trigger, int delayMillis)
      throws Exception {
    ChildJvm.await(() -> trigger.matcher(ChildJvm.read(log)).find(), "'" + trigger + "'", run, log);
    Thread.sleep(delayMillis);
    run.destroyForcibly().waitFor();
    assertThat(run.exitValue())
        .as(
            "the run was still going %d ms after '%s', and kill -9 ended it:\n%s",
            delayMillis, trigger, ChildJvm.read(log))
        .isEqualTo(KILLED);
  }

  /** Two accounts (dev after shared) of five units: global, then net and dns, then db, then app. */
  private static Path writeRepo(Path root, Path oracle) {
    try (TestRepo repo = TestRepo.create(root)) {
      repo.write(
          "livegate.hcl",
          "account \"shared\" {\n  path = \"shared\"\n}\n"
              + "account \"dev\" {\n  path = \"dev\"\n  depends_on = [\"shared\"]\n}\n");
      repo.commit("accounts");
      Map<String, List<String>> dependencies =
          Map.of(
              "global", List.of(),
              "net", List.of("global"),
              "dns", List.of("global"),
              "db", List.of("net"),
              "app", List.of("db", "dns"));
      for (String account : ACCOUNTS) {
        for (String unit : UNITS) {
          String path = account + "/" + unit;
          StringBuilder config = new StringBuilder();
          for (String dependency : dependencies.get(unit)) {
            config
                .append("dependency \"")
                .append(dependency)
                .append("\" {\n  config_path = \"../")
                .append(dependency)
                .append("\"\n}\n");
          }
          repo.write(path + "/terragrunt.hcl", config.toString());
          repo.write(
              path + "/main.tf",
              "resource \"terraform_data\" \"unit\" {\n"
                  + "  input = \""
                  + path
                  + "\"\n"
                  + "  provisioner \"local-exec\" {\n"
                  + "    command = \"sleep 0.3; "
                  + Oracle.append(oracle, path)
                  + "\"\n"
                  + "  }\n"
                  + "}\n");
        }
      }
      repo.commit("ten units");
      return repo.root();
    }
  }

  private static List<String> allUnits() {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < ACCOUNTS.size() * UNITS.size(); i++) {
      all.add(unitName(i));
    }
    return all;
  }

  private static String unitName(int index) {
    return ACCOUNTS.get(index / UNITS.size()) + "/" + UNITS.get(index % UNITS.size());
  }

  private Process livegate(Path log, String... args) throws IOException {
    Process process = ChildJvm.livegate(log, List.of(args));
    started.add(process);
    return process;
  }
}
