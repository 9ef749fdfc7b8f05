package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.statemachine.RuntimeContract;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.AssignPublicIp;
import software.amazon.awssdk.services.ecs.model.LaunchType;
import software.amazon.awssdk.services.ecs.model.RunTaskResponse;

/**
 * Starts livegate's ECS tasks (create-deploy-stack, pr-plan) on Fargate, in the configured subnets.
 * The task's arguments are the container's command, an argv list: nothing is parsed by a shell.
 *
 * <ul>
 *   <li>{@value RuntimeContract.Ecs#CLUSTER}: the cluster's ARN;
 *   <li>{@value RuntimeContract.Ecs#SUBNETS} and {@value RuntimeContract.Ecs#SECURITY_GROUPS}:
 *       comma-separated ids;
 *   <li>{@value RuntimeContract.Ecs#CONTAINER}: the tasks' container name (default {@code tasks}).
 * </ul>
 */
public final class EcsTasks {
  private final EcsClient ecs;
  private final String cluster;
  private final List<String> subnets;
  private final List<String> securityGroups;
  private final String container;

  public EcsTasks(
      EcsClient ecs,
      String cluster,
      List<String> subnets,
      List<String> securityGroups,
      String container) {
    this.ecs = ecs;
    this.cluster = cluster;
    this.subnets = List.copyOf(subnets);
    this.securityGroups = List.copyOf(securityGroups);
    this.container = container;
  }

  public static EcsTasks fromEnvironment(EcsClient ecs, Map<String, String> environment) {
    return new EcsTasks(
        ecs,
        Env.required(environment, RuntimeContract.Ecs.CLUSTER),
        ids(Env.required(environment, RuntimeContract.Ecs.SUBNETS)),
        ids(Env.required(environment, RuntimeContract.Ecs.SECURITY_GROUPS)),
        Env.optional(environment, RuntimeContract.Ecs.CONTAINER, "tasks"));
  }

  /**
   * Runs one task of {@code taskDefinition} with {@code command} as the container's command.
   *
   * @param clientToken makes a retried start with the same token answer with the task already
   *     started; empty for a start that must happen each time
   * @param what the task, for errors
   * @return the task's ARN
   */
  public String run(
      String taskDefinition,
      List<String> command,
      String startedBy,
      Optional<String> clientToken,
      String what) {
    RunTaskResponse response;
    try {
      response =
          ecs.runTask(
              request ->
                  request
                      .cluster(cluster)
                      .taskDefinition(taskDefinition)
                      .launchType(LaunchType.FARGATE)
                      .count(1)
                      .startedBy(startedBy.length() <= 36 ? startedBy : startedBy.substring(0, 36))
                      .clientToken(clientToken.orElse(null))
                      .networkConfiguration(
                          network ->
                              network.awsvpcConfiguration(
                                  vpc ->
                                      vpc.subnets(subnets)
                                          .securityGroups(securityGroups)
                                          .assignPublicIp(AssignPublicIp.DISABLED)))
                      .overrides(
                          overrides ->
                              overrides.containerOverrides(
                                  override -> override.name(container).command(command))));
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
    return response.tasks().get(0).taskArn();
  }

  private static List<String> ids(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .toList();
  }
}
