package io.livegate.lambdas.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.core.pr.PullRequestPlanner;
import io.livegate.core.pr.UnitPlanLauncher;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.AssignPublicIp;
import software.amazon.awssdk.services.ecs.model.LaunchType;
import software.amazon.awssdk.services.ecs.model.RunTaskResponse;

/**
 * Pull request plans as Fargate tasks of the pr-plan image. {@link #requestPlans} (the webhook
 * receiver's port) starts {@code pr-plan dispatch}; the dispatch's {@link #launch} starts one
 * {@code pr-plan unit} per changed unit. The pull request travels as the task's command: an argv
 * list whose every value is one {@code --option=value} element, so a unit path, even one that
 * starts with a dash or holds quotes or {@code $(...)}, stays one argument and is never parsed by a
 * shell or as an option. A retried start with the same pull request, head and unit carries the same
 * client token, which ECS answers with the task it already started.
 *
 * <p>Environment ({@link Settings#from}): {@value #CLUSTER}, {@value #SUBNETS} and {@value
 * #SECURITY_GROUPS} (comma-separated), {@value #CONTAINER}, {@value #TASK_DEFINITION}, and
 * optionally {@value #UNIT_TASK_DEFINITION} for the unit tasks (default: the same), so that the
 * tasks that run pull request code can have a role that cannot start tasks.
 */
public final class EcsPullRequestPlanner implements PullRequestPlanner, UnitPlanLauncher {
  public static final String CLUSTER = "LIVEGATE_CLUSTER_ARN";
  public static final String SUBNETS = "LIVEGATE_SUBNET_IDS";
  public static final String SECURITY_GROUPS = "LIVEGATE_SECURITY_GROUP_IDS";
  public static final String CONTAINER = "LIVEGATE_TASK_CONTAINER";
  public static final String TASK_DEFINITION = "LIVEGATE_PR_PLAN_TASK_DEFINITION";
  public static final String UNIT_TASK_DEFINITION = "LIVEGATE_PR_PLAN_UNIT_TASK_DEFINITION";

  /** The task's command and options, shared with the task's main (ecs-tasks' {@code Tasks}). */
  public static final String PR_PLAN = "pr-plan";

  public static final String DISPATCH = "dispatch";
  public static final String UNIT = "unit";
  public static final String REPOSITORY_OPTION = "--repository";
  public static final String NUMBER_OPTION = "--number";
  public static final String BASE_REF_OPTION = "--base-ref";
  public static final String BASE_SHA_OPTION = "--base-sha";
  public static final String HEAD_SHA_OPTION = "--head-sha";
  public static final String FROM_FORK_OPTION = "--from-fork";
  public static final String UNIT_OPTION = "--unit";

  /** Where and how the tasks run. */
  public record Settings(
      String cluster,
      List<String> subnets,
      List<String> securityGroups,
      String container,
      String dispatchTaskDefinition,
      String unitTaskDefinition) {
    public Settings {
      subnets = List.copyOf(subnets);
      securityGroups = List.copyOf(securityGroups);
    }

    public static Settings from(Map<String, String> environment) {
      String dispatch = Env.required(environment, TASK_DEFINITION);
      return new Settings(
          Env.required(environment, CLUSTER),
          list(environment, SUBNETS),
          list(environment, SECURITY_GROUPS),
          Env.required(environment, CONTAINER),
          dispatch,
          Env.optional(environment, UNIT_TASK_DEFINITION, dispatch));
    }

    private static List<String> list(Map<String, String> environment, String name) {
      return Arrays.stream(Env.required(environment, name).split(","))
          .map(String::strip)
          .filter(id -> !id.isEmpty())
          .toList();
    }
  }

  private final EcsClient ecs;
  private final Settings settings;

  public EcsPullRequestPlanner(EcsClient ecs, Settings settings) {
    this.ecs = ecs;
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
    List<String> command = new ArrayList<>(List.of(PR_PLAN, DISPATCH));
    command.addAll(headOptions(head));
    return command;
  }

  /** {@code pr-plan unit --repository=... ... --unit=<unit>} */
  public static List<String> unitCommand(PullRequestHead head, String unit) {
    List<String> command = new ArrayList<>(List.of(PR_PLAN, UNIT));
    command.addAll(headOptions(head));
    command.add(UNIT_OPTION + "=" + unit);
    return command;
  }

  private static List<String> headOptions(PullRequestHead head) {
    List<String> options =
        new ArrayList<>(
            List.of(
                REPOSITORY_OPTION + "=" + head.repository(),
                NUMBER_OPTION + "=" + head.number(),
                BASE_REF_OPTION + "=" + (head.baseRef() == null ? "" : head.baseRef()),
                BASE_SHA_OPTION + "=" + head.baseSha(),
                HEAD_SHA_OPTION + "=" + head.headSha()));
    if (head.fromFork()) {
      options.add(FROM_FORK_OPTION);
    }
    return options;
  }

  private void run(String taskDefinition, List<String> command, PullRequestHead head, String unit) {
    String what =
        "pr-plan "
            + (unit.isEmpty() ? DISPATCH : UNIT + " " + unit)
            + " of "
            + head.repository()
            + "#"
            + head.number();
    RunTaskResponse response;
    try {
      response =
          ecs.runTask(
              request ->
                  request
                      .cluster(settings.cluster())
                      .taskDefinition(taskDefinition)
                      .launchType(LaunchType.FARGATE)
                      .count(1)
                      .startedBy("livegate-pr-" + head.number())
                      .clientToken(clientToken(command))
                      .networkConfiguration(
                          network ->
                              network.awsvpcConfiguration(
                                  vpc ->
                                      vpc.subnets(settings.subnets())
                                          .securityGroups(settings.securityGroups())
                                          .assignPublicIp(AssignPublicIp.DISABLED)))
                      .overrides(
                          overrides ->
                              overrides.containerOverrides(
                                  container ->
                                      container.name(settings.container()).command(command))));
    } catch (SdkException e) {
      throw new LivegateException("cannot start " + what + ": " + e.getMessage(), e);
    }
    if (!response.failures().isEmpty() || response.tasks().isEmpty()) {
      throw new LivegateException(
          "ECS did not start "
              + what
              + ": "
              + response.failures().stream()
                  .map(failure -> failure.arn() + " " + failure.reason())
                  .toList());
    }
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
