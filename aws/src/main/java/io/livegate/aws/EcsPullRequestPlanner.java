package io.livegate.aws;

import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.pr.UnitPlanLauncher;
import io.livegate.statemachine.RuntimeContract;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pull request plans as Fargate tasks of the pr-plan image. {@link #requestPlans} (the webhook
 * receiver's port) starts {@code pr-plan dispatch}; the dispatch's {@link #launch} starts one
 * {@code pr-plan unit} per changed unit. The pull request travels as the task's command: an argv
 * list whose every value is one {@code --option=value} element, so a unit path, even one that
 * starts with a dash or holds quotes or {@code $(...)}, stays one argument and is never parsed by a
 * shell or as an option. A retried start with the same pull request, head and unit carries the same
 * client token, which ECS answers with the task it already started.
 *
 * <p>Environment ({@link Settings#from}): {@value
 * RuntimeContract.PullRequestPlans#TASK_DEFINITION}, and optionally {@value #UNIT_TASK_DEFINITION}
 * for the unit tasks (default: the same), so that the tasks that run pull request code can have a
 * role that cannot start tasks; and {@link EcsTasks}'s.
 */
public final class EcsPullRequestPlanner implements PullRequestPlanner, UnitPlanLauncher {
  /** The task's command and options, shared with the task's main (ecs-tasks' {@code Tasks}). */
  /** Where and how the tasks run. */
  /** The task definitions of the dispatch and of the unit plans. */
  public record Settings(String dispatchTaskDefinition, String unitTaskDefinition) {
    public static Settings from(Map<String, String> environment) {
      String dispatch = Env.required(environment, RuntimeContract.PullRequestPlans.TASK_DEFINITION);
      return new Settings(
          dispatch,
          Env.optional(
              environment, RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION, dispatch));
    }
  }

  private final EcsTasks tasks;
  private final Settings settings;

  public EcsPullRequestPlanner(EcsTasks tasks, Settings settings) {
    this.tasks = tasks;
    this.settings = settings;
  }

  /** Starts {@code pr-plan dispatch}; throws {@link LivegateException} when ECS refuses. */
  @Override
  public void requestPlans(PullRequestHead head) {
    run(settings.dispatchTaskDefinition(), dispatchCommand(head), head, "");
  }

  /** Starts {@code pr-plan unit}; throws {@link LivegateException} when ECS refuses. */
  @Override
  public void launch(PullRequestHead head, String unit) {
    run(settings.unitTaskDefinition(), unitCommand(head, unit), head, unit);
  }

  /** {@code pr-plan dispatch --repository=... --number=... ...} */
  public static List<String> dispatchCommand(PullRequestHead head) {
    List<String> command =
        new ArrayList<>(
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN,
                RuntimeContract.PullRequestPlans.DISPATCH));
    command.addAll(headOptions(head));
    return command;
  }

  /** {@code pr-plan unit --repository=... ... --unit=<unit>} */
  public static List<String> unitCommand(PullRequestHead head, String unit) {
    List<String> command =
        new ArrayList<>(
            List.of(
                RuntimeContract.PullRequestPlans.PR_PLAN, RuntimeContract.PullRequestPlans.UNIT));
    command.addAll(headOptions(head));
    command.add(RuntimeContract.PullRequestPlans.UNIT_OPTION + "=" + unit);
    return command;
  }

  private static List<String> headOptions(PullRequestHead head) {
    List<String> options =
        new ArrayList<>(
            List.of(
                RuntimeContract.PullRequestPlans.REPOSITORY_OPTION + "=" + head.repository(),
                RuntimeContract.PullRequestPlans.NUMBER_OPTION + "=" + head.number(),
                RuntimeContract.PullRequestPlans.BASE_REF_OPTION
                    + "="
                    + (head.baseRef() == null ? "" : head.baseRef()),
                RuntimeContract.PullRequestPlans.BASE_SHA_OPTION + "=" + head.baseSha(),
                RuntimeContract.PullRequestPlans.HEAD_SHA_OPTION + "=" + head.headSha()));
    if (head.fromFork()) {
      options.add(RuntimeContract.PullRequestPlans.FROM_FORK_OPTION);
    }
    return options;
  }

  private void run(String taskDefinition, List<String> command, PullRequestHead head, String unit) {
    tasks.run(
        taskDefinition,
        command,
        "livegate-pr-" + head.number(),
        Optional.of(clientToken(command)),
        "pr-plan "
            + (unit.isEmpty()
                ? RuntimeContract.PullRequestPlans.DISPATCH
                : RuntimeContract.PullRequestPlans.UNIT + " " + unit)
            + " of "
            + head.repository()
            + "#"
            + head.number());
  }

  /** The same command gives the same token: at most 64 characters, as ECS allows. */
  private static String clientToken(List<String> command) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      for (String argument : command) {
        sha256.update(argument.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha256.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
