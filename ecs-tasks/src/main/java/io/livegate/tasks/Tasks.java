package io.livegate.tasks;

import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.SfnHeartbeat;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.core.pr.PlanPullRequestResult;
import io.livegate.core.pr.PlanUnitCommand;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The container's entry point: {@code create-deploy-stack}, {@code terra-run plan|apply}, {@code
 * pr-plan dispatch|unit} and {@code drift}. The environment is read here and in {@link TaskWiring}
 * only; output goes to stdout (CloudWatch), each unit's lines prefixed with the unit.
 */
@Command(
    name = "livegate-task",
    mixinStandardHelpOptions = true,
    subcommands = {
      Tasks.CreateDeployStack.class,
      Tasks.TerraRunCommand.class,
      Tasks.PrPlan.class,
      Tasks.Drift.class
    },
    description = "livegate's ECS tasks.")
public final class Tasks {
  public static void main(String[] args) {
    // the task's log: what the repository's code and names bring is printed escaped, and a
    // message's lines after its first indented, so none passes for a line of its own (Printable)
    System.exit(execute(System.getenv(), Printable.logWriter(new PrintWriter(System.out)), args));
  }

  static int execute(Map<String, String> environment, PrintWriter out, String... args) {
    return commandLine(environment, out).execute(args);
  }

  /**
   * The command line; {@code @file} arguments are not expanded and an option's value may look like
   * an option, since arguments carry pull request data such as unit paths and branch names.
   */
  static CommandLine commandLine(Map<String, String> environment, PrintWriter out) {
    return new CommandLine(new Tasks(), new Factory(environment, out))
        .setExpandAtFiles(false)
        .setAllowOptionsAsOptionParameters(true)
        .setOut(out)
        .setErr(out)
        .setExecutionExceptionHandler(
            (e, cmd, parsed) -> {
              out.println("livegate-task: " + e.getMessage());
              return e instanceof LivegateException ? 1 : 2;
            });
  }

  /** Hands each subcommand the environment and the output. */
  private record Factory(Map<String, String> environment, PrintWriter out)
      implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      if (type == CreateDeployStack.class) {
        return type.cast(new CreateDeployStack(environment, out));
      }
      if (type == TerraRunCommand.class) {
        return type.cast(new TerraRunCommand(environment, out));
      }
      if (type == PrPlanDispatch.class) {
        return type.cast(new PrPlanDispatch(environment, out));
      }
      if (type == Drift.class) {
        return type.cast(new Drift(environment, out));
      }
      if (type == PrPlanUnit.class) {
        return type.cast(new PrPlanUnit(environment, out));
      }
      return CommandLine.defaultFactory().create(type);
    }
  }

  @Command(
      name = "create-deploy-stack",
      mixinStandardHelpOptions = true,
      description = "Scan a merge commit, store its deployment and tell the trigger.")
  static final class CreateDeployStack implements Callable<Integer> {
    @Option(names = "--repository", required = true, description = "owner/name on GitHub")
    String repository;

    @Option(names = "--pull-request", required = true)
    int pullRequest;

    @Option(names = "--base-ref", defaultValue = "main")
    String baseRef;

    @Option(names = "--head-ref", defaultValue = "")
    String headRef;

    @Option(names = "--base-sha", required = true, description = "the pull request's base")
    String baseSha;

    @Option(names = "--merge-sha", required = true, description = "the merge commit to deploy")
    String mergeSha;

    @Option(names = "--head-sha", defaultValue = "", description = "the pull request's head")
    String headSha;

    @Option(
        names = "--commits",
        defaultValue = "0",
        description = "the pull request's commits; 0 when --base-sha is the trunk before the merge")
    int commits;

    private final Map<String, String> environment;
    private final PrintWriter out;

    CreateDeployStack(Map<String, String> environment, PrintWriter out) {
      this.environment = environment;
      this.out = out;
    }

    @Override
    public Integer call() {
      return TaskWiring.fromEnvironment(environment, out).createDeployStack().run(merge());
    }

    MergedPullRequest merge() {
      return MergedPullRequest.fromGitHub(
          repository,
          pullRequest,
          baseRef,
          headRef,
          baseSha,
          mergeSha,
          headSha.isEmpty() ? null : headSha,
          commits);
    }
  }

  @Command(
      name = "drift",
      mixinStandardHelpOptions = true,
      description =
          "Plan every unit of the trunk's head and report drift on GitHub and by mail (scheduled).")
  static final class Drift implements Callable<Integer> {
    @Option(names = "--repository", required = true, description = "owner/name on GitHub")
    String repository;

    @Option(names = "--trunk", defaultValue = "main", description = "the branch that deploys")
    String trunk;

    private final Map<String, String> environment;
    private final PrintWriter out;

    Drift(Map<String, String> environment, PrintWriter out) {
      this.environment = environment;
      this.out = out;
    }

    @Override
    public Integer call() {
      return TaskWiring.fromEnvironment(environment, out).drift().run(repository, trunk);
    }
  }

  @Command(
      name = DeployFlow.TERRA_RUN,
      mixinStandardHelpOptions = true,
      description = "Plan or apply one execution of the deploy flow.")
  static final class TerraRunCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "plan or apply")
    String mode;

    private final Map<String, String> environment;
    private final PrintWriter out;

    TerraRunCommand(Map<String, String> environment, PrintWriter out) {
      this.environment = environment;
      this.out = out;
    }

    @Override
    public Integer call() {
      long executionId;
      try {
        executionId = Long.parseLong(environment.getOrDefault(DeployFlow.EXECUTION_ID_ENV, ""));
      } catch (NumberFormatException e) {
        throw new LivegateException(DeployFlow.EXECUTION_ID_ENV + " must be an execution id");
      }
      TaskWiring wiring = TaskWiring.fromEnvironment(environment, out);
      TerraRunJob job = wiring.terraRun();
      if (mode.equals(DeployFlow.PLAN_MODE)) {
        String token = environment.get(DeployFlow.TASK_TOKEN_ENV);
        if (token == null || token.isBlank()) {
          throw new LivegateException(DeployFlow.TASK_TOKEN_ENV + " is not set");
        }
        SfnHeartbeat heartbeat = wiring.heartbeat(token);
        try {
          return job.plan(executionId, token);
        } finally {
          heartbeat.close();
        }
      }
      if (mode.equals(DeployFlow.APPLY_MODE)) {
        return job.apply(executionId);
      }
      throw new LivegateException("terra-run runs plan or apply, not " + mode);
    }
  }

  @Command(
      name = RuntimeContract.PullRequestPlans.PR_PLAN,
      mixinStandardHelpOptions = true,
      subcommands = {PrPlanDispatch.class, PrPlanUnit.class},
      description = "Plan a pull request's changed units; never apply.")
  static final class PrPlan {}

  /** The pull request, as {@link EcsPullRequestPlanner} passes it. */
  static final class PullRequestOptions {
    @Option(names = RuntimeContract.PullRequestPlans.REPOSITORY_OPTION, required = true)
    String repository;

    @Option(names = RuntimeContract.PullRequestPlans.NUMBER_OPTION, required = true)
    int number;

    @Option(names = RuntimeContract.PullRequestPlans.BASE_REF_OPTION, defaultValue = "")
    String baseRef;

    @Option(names = RuntimeContract.PullRequestPlans.BASE_SHA_OPTION, required = true)
    String baseSha;

    @Option(names = RuntimeContract.PullRequestPlans.HEAD_SHA_OPTION, required = true)
    String headSha;

    @Option(names = RuntimeContract.PullRequestPlans.FROM_FORK_OPTION)
    boolean fromFork;

    PullRequestHead head() {
      return new PullRequestHead(repository, number, baseRef, baseSha, headSha, fromFork);
    }
  }

  @Command(
      name = RuntimeContract.PullRequestPlans.DISPATCH,
      mixinStandardHelpOptions = true,
      description = "Scan the pull request and start a pr-plan unit task per changed unit.")
  static final class PrPlanDispatch implements Callable<Integer> {
    @Mixin PullRequestOptions pullRequest;

    private final Map<String, String> environment;
    private final PrintWriter out;

    PrPlanDispatch(Map<String, String> environment, PrintWriter out) {
      this.environment = environment;
      this.out = out;
    }

    @Override
    public Integer call() {
      TaskWiring wiring = TaskWiring.fromEnvironment(environment, out);
      PlanPullRequestResult result = wiring.prPlanDispatch().plan(pullRequest.head());
      wiring.reportPlanned(pullRequest.head(), result);
      return result.outcome() == PlanPullRequestResult.Outcome.FAILED ? 1 : 0;
    }
  }

  @Command(
      name = RuntimeContract.PullRequestPlans.UNIT,
      mixinStandardHelpOptions = true,
      description = "Plan one unit of the pull request with the plan role; never apply.")
  static final class PrPlanUnit implements Callable<Integer> {
    @Mixin PullRequestOptions pullRequest;

    @Option(names = RuntimeContract.PullRequestPlans.UNIT_OPTION, required = true)
    String unit;

    private final Map<String, String> environment;
    private final PrintWriter out;

    PrPlanUnit(Map<String, String> environment, PrintWriter out) {
      this.environment = environment;
      this.out = out;
    }

    PlanUnitCommand command() {
      return new PlanUnitCommand(pullRequest.head(), unit);
    }

    @Override
    public Integer call() {
      PlanUnitCommand command = command();
      return TaskWiring.fromEnvironment(environment, out).prPlanUnit(unit).plan(command).planned()
          ? 0
          : 1;
    }
  }
}
