package io.livegate.tests.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.aws.EcsPullRequestPlanner;
import io.livegate.aws.EcsTasks;
import io.livegate.core.LivegateException;
import io.livegate.core.pr.PullRequestHead;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tests.moto.MotoServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerOverride;
import software.amazon.awssdk.services.ecs.model.LaunchType;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Task;

/**
 * The pr-plan tasks as moto's ECS records them: the exact command overrides of the dispatch and of
 * a unit, with a hostile unit path kept as one argument.
 */
@Tag("moto")
class EcsPullRequestPlannerTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  private static final String CONTAINER = "tasks";
  private static final String BASE = "1111111111111111111111111111111111111111";
  private static final String HEAD = "2222222222222222222222222222222222222222";

  private final EcsClient ecs = MOTO.client(EcsClient.builder());
  private String cluster;
  private EcsPullRequestPlanner planner;

  @BeforeEach
  void cluster() {
    MOTO.reset();
    cluster = ecs.createCluster(r -> r.clusterName("livegate")).cluster().clusterArn();
    String dispatch = taskDefinition("pr-plan-dispatch");
    String unit = taskDefinition("pr-plan-unit");
    MotoServer.Network network = MOTO.network();
    Map<String, String> environment = new HashMap<>();
    environment.put(RuntimeContract.Ecs.CLUSTER, cluster);
    environment.put(RuntimeContract.Ecs.SUBNETS, network.subnetId());
    environment.put(RuntimeContract.Ecs.SECURITY_GROUPS, " " + network.securityGroupId() + " ,");
    environment.put(RuntimeContract.Ecs.CONTAINER, CONTAINER);
    environment.put(RuntimeContract.PullRequestPlans.TASK_DEFINITION, dispatch);
    environment.put(RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION, unit);
    planner =
        new EcsPullRequestPlanner(
            EcsTasks.fromEnvironment(ecs, environment),
            EcsPullRequestPlanner.Settings.from(environment));
  }

  @AfterEach
  void close() {
    ecs.close();
  }

  @Test
  void theDispatchRunsOnFargateWithThePullRequestAsItsCommand() {
    planner.requestPlans(new PullRequestHead("acme/live", 7, "main", BASE, HEAD, false));

    Task task = MOTO.awaitRunningTask(cluster);
    assertThat(task.launchType()).isEqualTo(LaunchType.FARGATE);
    assertThat(task.taskDefinitionArn()).contains("pr-plan-dispatch");
    assertThat(task.startedBy()).isEqualTo("livegate-pr-7");
    ContainerOverride override = task.overrides().containerOverrides().get(0);
    assertThat(override.name()).isEqualTo(CONTAINER);
    assertThat(override.command())
        .containsExactly(
            "pr-plan",
            "dispatch",
            "--repository=acme/live",
            "--number=7",
            "--base-ref=main",
            "--base-sha=" + BASE,
            "--head-sha=" + HEAD);
    assertThat(override.environment()).isEmpty();
  }

  @Test
  void aHostileUnitPathIsOneArgumentOfTheUnitTask() {
    String unit = "-rf/it's a \"unit\" $(touch /tmp/pwned); `id` @file";

    planner.launch(new PullRequestHead("acme/live", 7, "main", BASE, HEAD, true), unit);

    Task task = MOTO.awaitRunningTask(cluster);
    assertThat(task.taskDefinitionArn()).contains("pr-plan-unit");
    assertThat(task.overrides().containerOverrides().get(0).command())
        .containsExactly(
            "pr-plan",
            "unit",
            "--repository=acme/live",
            "--number=7",
            "--base-ref=main",
            "--base-sha=" + BASE,
            "--head-sha=" + HEAD,
            "--from-fork",
            "--unit=" + unit);
    assertThat(MOTO.taskEnvironment(cluster, task.taskArn())).isEmpty();
  }

  @Test
  void aTaskThatEcsCannotStartIsAnError() {
    Map<String, String> environment = new HashMap<>();
    environment.put(RuntimeContract.Ecs.CLUSTER, cluster);
    environment.put(RuntimeContract.Ecs.SUBNETS, "subnet-1");
    environment.put(RuntimeContract.Ecs.SECURITY_GROUPS, "sg-1");
    environment.put(RuntimeContract.Ecs.CONTAINER, CONTAINER);
    environment.put(RuntimeContract.PullRequestPlans.TASK_DEFINITION, "no-such-task-definition");
    EcsPullRequestPlanner broken =
        new EcsPullRequestPlanner(
            EcsTasks.fromEnvironment(ecs, environment),
            EcsPullRequestPlanner.Settings.from(environment));

    assertThatThrownBy(
            () ->
                broken.requestPlans(new PullRequestHead("acme/live", 7, "main", BASE, HEAD, false)))
        .isInstanceOf(LivegateException.class)
        .hasMessageContaining("pr-plan dispatch of acme/live#7");
    assertThat(MOTO.runningTasks(cluster)).isEmpty();
  }

  private String taskDefinition(String family) {
    return ecs.registerTaskDefinition(
            r ->
                r.family(family)
                    .requiresCompatibilities(Compatibility.FARGATE)
                    .networkMode(NetworkMode.AWSVPC)
                    .cpu("256")
                    .memory("512")
                    .containerDefinitions(
                        c ->
                            c.name(CONTAINER)
                                .image("livegate/ecs-tasks:test")
                                .memory(512)
                                .essential(true)))
        .taskDefinition()
        .taskDefinitionArn();
  }
}
