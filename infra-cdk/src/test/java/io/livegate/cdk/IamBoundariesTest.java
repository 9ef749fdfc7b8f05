package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.statemachine.RuntimeContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.secretsmanager.ISecret;

/**
 * Least privilege, as assertions on the synthesized policies: every role's exact actions, who may
 * assume which account role, and who may read which secret.
 */
class IamBoundariesTest {
  private static final Set<String> VPC_FUNCTION =
      Set.of(
          "ec2:AssignPrivateIpAddresses",
          "ec2:CreateNetworkInterface",
          "ec2:DeleteNetworkInterface",
          "ec2:DescribeNetworkInterfaces",
          "ec2:DescribeSubnets",
          "ec2:UnassignPrivateIpAddresses",
          "logs:CreateLogStream",
          "logs:PutLogEvents");
  private static final Set<String> TASK_TOKEN =
      Set.of("states:SendTaskFailure", "states:SendTaskHeartbeat", "states:SendTaskSuccess");

  private final LivegateStack stack = Shared.stack();
  private final Iam iam = Shared.iam();

  private IRole role(String entryPoint) {
    return stack.roles().get(entryPoint);
  }

  private static Set<String> union(Set<String> first, String... more) {
    Set<String> all = new TreeSet<>(first);
    all.addAll(List.of(more));
    return all;
  }

  private Set<String> rolesAllowed(String action) {
    return stack.roles().entrySet().stream()
        .filter(entry -> iam.actions(entry.getValue()).contains(action))
        .map(Map.Entry::getKey)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private Set<String> readersOf(ISecret secret) {
    JsonNode arn = iam.resolved(secret.getSecretArn());
    return stack.roles().entrySet().stream()
        .filter(
            entry -> iam.resources(entry.getValue(), "secretsmanager:GetSecretValue").contains(arn))
        .map(Map.Entry::getKey)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private List<JsonNode> literal(String... arns) {
    return List.of(arns).stream()
        .map(arn -> (JsonNode) Iam.JSON.getNodeFactory().textNode(arn))
        .toList();
  }

  @Test
  void theWatchdogListsStopsAndDescribesTasksOfLivegatesClusterOnly() {
    assertThat(rolesAllowed("ecs:ListTasks")).containsExactly("trigger");
    Iam.Statement list =
        iam.statements(role("trigger")).stream()
            .filter(statement -> statement.allows("ecs:ListTasks"))
            .findFirst()
            .orElseThrow();
    assertThat(list.actions()).containsExactly("ecs:ListTasks");
    // ListTasks names no task: only the condition narrows it, to livegate's cluster.
    assertThat(list.condition().path("ArnEquals").path("ecs:cluster"))
        .isEqualTo(iam.resolved(stack.cluster().getClusterArn()));
    assertThat(rolesAllowed("ecs:StopTask")).containsExactlyInAnyOrder("trigger", "deploy-flow");
    assertThat(iam.resources(role("trigger"), "ecs:StopTask"))
        .isEqualTo(iam.resources(role("deploy-flow"), "ecs:StopTask"))
        .singleElement()
        .satisfies(arn -> assertThat(arn.toString()).contains(":task/").contains("/*"));
  }

  @Test
  void everyRoleHasExactlyTheActionsItsEntryPointCalls() {
    Map<String, Set<String>> expected =
        Map.ofEntries(
            Map.entry(
                "webhook",
                union(
                    VPC_FUNCTION,
                    "secretsmanager:GetSecretValue",
                    "ssm:GetParameter",
                    "ssm:PutParameter",
                    "states:StartExecution",
                    "ecs:RunTask",
                    "iam:PassRole",
                    "lambda:InvokeFunction")),
            Map.entry(
                "trigger",
                union(
                    union(VPC_FUNCTION, TASK_TOKEN.toArray(String[]::new)),
                    "secretsmanager:GetSecretValue",
                    "ssm:GetParameter",
                    "ssm:PutParameter",
                    "ssm:DeleteParameter",
                    "states:StartExecution",
                    "states:StopExecution",
                    "ecs:RunTask",
                    "iam:PassRole",
                    "ecs:ListTasks",
                    "ecs:DescribeTasks",
                    "ecs:StopTask",
                    "sqs:SendMessage",
                    "sqs:GetQueueAttributes",
                    "sqs:GetQueueUrl")),
            Map.entry(
                "approval-request",
                union(
                    union(VPC_FUNCTION, TASK_TOKEN.toArray(String[]::new)),
                    "secretsmanager:GetSecretValue",
                    "ses:SendEmail",
                    "ses:SendRawEmail",
                    // Its failures after Lambda's retries go to the approval dead-letter queue.
                    "sqs:SendMessage",
                    "sqs:GetQueueAttributes",
                    "sqs:GetQueueUrl")),
            Map.entry(
                "approval-response",
                union(
                    union(VPC_FUNCTION, TASK_TOKEN.toArray(String[]::new)),
                    "secretsmanager:GetSecretValue",
                    "s3:GetObject")),
            Map.entry("migrate", union(VPC_FUNCTION, "secretsmanager:GetSecretValue")),
            Map.entry(
                "admin",
                union(
                    VPC_FUNCTION,
                    "secretsmanager:GetSecretValue",
                    "ssm:GetParameter",
                    "ssm:PutParameter",
                    "ssm:DeleteParameter",
                    "states:StartExecution",
                    "states:StopExecution",
                    "ecs:RunTask",
                    "iam:PassRole",
                    "s3:GetObject",
                    "s3:ListBucket")),
            Map.entry(
                "create-deploy-stack",
                Set.of("secretsmanager:GetSecretValue", "lambda:InvokeFunction")),
            Map.entry(
                "pr-plan-dispatch",
                Set.of(
                    "secretsmanager:GetSecretValue",
                    "ecs:RunTask",
                    "iam:PassRole",
                    "lambda:InvokeFunction")),
            Map.entry("pr-plan-unit", Set.of("secretsmanager:GetSecretValue", "sts:AssumeRole")),
            Map.entry(
                "terra-run-plan",
                union(
                    TASK_TOKEN,
                    "secretsmanager:GetSecretValue",
                    "s3:PutObject",
                    "s3:GetObject",
                    "s3:ListBucket",
                    "sts:AssumeRole")),
            Map.entry(
                "terra-run-apply",
                Set.of(
                    "secretsmanager:GetSecretValue",
                    "s3:GetObject",
                    "s3:PutObject",
                    "s3:ListBucket",
                    "sts:AssumeRole")),
            Map.entry(
                "deploy-flow",
                Set.of(
                    "ecs:RunTask",
                    "ecs:StopTask",
                    "ecs:DescribeTasks",
                    "events:PutTargets",
                    "events:PutRule",
                    "events:DescribeRule",
                    "iam:PassRole",
                    "sns:Publish",
                    // Step Functions' logging to CloudWatch, which CDK grants with the log options.
                    "logs:CreateLogDelivery",
                    "logs:DeleteLogDelivery",
                    "logs:DescribeLogGroups",
                    "logs:DescribeResourcePolicies",
                    "logs:GetLogDelivery",
                    "logs:ListLogDeliveries",
                    "logs:PutResourcePolicy",
                    "logs:UpdateLogDelivery")));
    assertThat(stack.roles().keySet()).isEqualTo(expected.keySet());
    expected.forEach(
        (entryPoint, actions) ->
            assertThat(iam.actions(role(entryPoint)))
                .as(entryPoint)
                .isEqualTo(new TreeSet<>(actions)));
  }

  @Test
  void onlyEniManagementAndLogDeliveryAreGrantedOnEveryResource() {
    Set<String> allowedOnStar =
        union(
            VPC_FUNCTION,
            "logs:CreateLogDelivery",
            "logs:DeleteLogDelivery",
            "logs:DescribeLogGroups",
            "logs:DescribeResourcePolicies",
            "logs:GetLogDelivery",
            "logs:ListLogDeliveries",
            "logs:PutResourcePolicy",
            "logs:UpdateLogDelivery");
    allowedOnStar.remove("logs:CreateLogStream");
    allowedOnStar.remove("logs:PutLogEvents");
    stack
        .roles()
        .forEach(
            (entryPoint, role) ->
                iam.statements(role).stream()
                    .filter(s -> s.resources().stream().anyMatch(r -> r.asText().equals("*")))
                    // The watchdog's ListTasks names no task; its condition holds it to the
                    // cluster (theWatchdogListsStopsAndDescribesTasksOfLivegatesClusterOnly).
                    .filter(
                        s ->
                            !(s.actions().equals(List.of("ecs:ListTasks"))
                                && s.condition().path("ArnEquals").has("ecs:cluster")))
                    .forEach(
                        s ->
                            assertThat(allowedOnStar)
                                .as(entryPoint + " on *")
                                .containsAll(s.actions())));
    stack
        .roles()
        .forEach(
            (entryPoint, role) ->
                assertThat(iam.actions(role)).as(entryPoint).noneMatch(a -> a.contains("*")));
  }

  @Test
  void thePlanTaskAssumesExactlyThePlanRolesAndTheApplyTaskExactlyTheApplyRoles() {
    assertThat(iam.resources(role("terra-run-plan"), "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN));
    assertThat(iam.resources(role("terra-run-apply"), "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_APPLY, Fixtures.DEV_APPLY));
  }

  @Test
  void noRoleButThePlanningAndApplyingTasksAssumesAnAccountRole() {
    assertThat(rolesAllowed("sts:AssumeRole"))
        .containsExactlyInAnyOrder("pr-plan-unit", "terra-run-plan", "terra-run-apply");
  }

  @Test
  void prPlanUnitAssumesOnlyThePlanRolesAndCannotStartTasks() {
    IRole unit = role("pr-plan-unit");
    assertThat(iam.resources(unit, "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN));
    String everything = iam.statements(unit).toString();
    assertThat(everything).doesNotContain(Fixtures.SHARED_APPLY).doesNotContain(Fixtures.DEV_APPLY);
    // It runs the pull request's code: no starting tasks, no passing roles, no writing plans.
    assertThat(iam.actions(unit))
        .doesNotContain("ecs:RunTask", "iam:PassRole")
        .noneMatch(action -> action.startsWith("s3:"));
  }

  @Test
  void prPlanDispatchStartsOnlyUnitTasksAndAssumesNoRole() {
    IRole dispatch = role("pr-plan-dispatch");
    assertThat(iam.actions(dispatch))
        .doesNotContain("sts:AssumeRole")
        .noneMatch(action -> action.startsWith("s3:"));
    String everything = iam.statements(dispatch).toString();
    for (String accountRole :
        List.of(
            Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN, Fixtures.SHARED_APPLY, Fixtures.DEV_APPLY)) {
      assertThat(everything).doesNotContain(accountRole);
    }
    // The unit's definition only (its own would let a dispatch start dispatches).
    assertThat(iam.resources(dispatch, "ecs:RunTask").toString())
        .contains("task-definition/Livegate-pr-plan-unit:*")
        .doesNotContain("pr-plan-dispatch");
  }

  @Test
  void thePrPlanTasksReadOnlyTheGithubTokenNeverTheVoteKeyOrTheMetadb() {
    for (String entryPoint : List.of("pr-plan-dispatch", "pr-plan-unit")) {
      assertThat(iam.resources(role(entryPoint), "secretsmanager:GetSecretValue"))
          .as(entryPoint)
          .containsExactly(iam.resolved(stack.githubToken().getSecretArn()));
      assertThat(readersOf(stack.voteKey())).doesNotContain(entryPoint);
      assertThat(readersOf(stack.metadb().getSecret())).doesNotContain(entryPoint);
    }
  }

  @Test
  void eachSecretIsReadByTheEntryPointsThatUseItOnly() {
    assertThat(readersOf(stack.voteKey()))
        .containsExactlyInAnyOrder("approval-request", "approval-response");
    assertThat(readersOf(stack.webhookSecret())).containsExactly("webhook");
    assertThat(readersOf(stack.githubToken()))
        .containsExactlyInAnyOrder(
            "webhook",
            "trigger",
            "admin",
            "create-deploy-stack",
            "pr-plan-dispatch",
            "pr-plan-unit",
            "terra-run-plan",
            "terra-run-apply");
    assertThat(readersOf(stack.metadb().getSecret()))
        .containsExactlyInAnyOrder(
            "webhook",
            "trigger",
            "admin",
            "approval-request",
            "approval-response",
            "migrate",
            "create-deploy-stack",
            "terra-run-plan",
            "terra-run-apply");
  }

  @Test
  void flowsAreStartedByTheEngineStoppedByTheTriggerAndAnsweredByPlanAndTheVotes() {
    JsonNode stateMachine = iam.resolved(stack.deployFlow().getStateMachineArn());
    // The webhook starts the flows of a deployment it activates whose stack is already stored;
    // admin those of the deployment it hands the lock to.
    assertThat(rolesAllowed("states:StartExecution"))
        .containsExactlyInAnyOrder("trigger", "webhook", "admin");
    for (String entryPoint : List.of("trigger", "webhook", "admin")) {
      assertThat(iam.resources(role(entryPoint), "states:StartExecution"))
          .as(entryPoint)
          .containsExactly(stateMachine);
    }
    // admin stops the flows of the deployment it aborts.
    assertThat(rolesAllowed("states:StopExecution")).containsExactlyInAnyOrder("trigger", "admin");
    // The trigger fails the token of a Plan task that stopped without answering it.
    assertThat(rolesAllowed("states:SendTaskSuccess"))
        .containsExactlyInAnyOrder(
            "terra-run-plan", "approval-request", "approval-response", "trigger");
    for (String entryPoint : rolesAllowed("states:SendTaskSuccess")) {
      assertThat(iam.resources(role(entryPoint), "states:SendTaskSuccess"))
          .containsExactly(stateMachine);
    }
  }

  @Test
  void onlyCreateDeployStackPrPlanDispatchAndTheWebhookInvokeAndOnlyTheTrigger() {
    assertThat(rolesAllowed("lambda:InvokeFunction"))
        .containsExactlyInAnyOrder("create-deploy-stack", "pr-plan-dispatch", "webhook");
    for (String entryPoint : rolesAllowed("lambda:InvokeFunction")) {
      assertThat(iam.resources(role(entryPoint), "lambda:InvokeFunction"))
          .as(entryPoint)
          .singleElement()
          .satisfies(arn -> assertThat(arn.toString()).contains("-trigger:live"));
    }
  }

  @Test
  void tasksAreStartedOnlyInTheClusterAndOnlyByWhoStartsThem() {
    Map<String, List<String>> families =
        Map.of(
            "webhook", List.of("create-deploy-stack", "pr-plan-dispatch"),
            "trigger", List.of("create-deploy-stack"),
            "admin", List.of("create-deploy-stack"),
            "pr-plan-dispatch", List.of("pr-plan-unit"),
            "deploy-flow", List.of("terra-run-plan", "terra-run-apply"));
    assertThat(rolesAllowed("ecs:RunTask")).isEqualTo(new TreeSet<>(families.keySet()));
    JsonNode cluster = iam.resolved(stack.cluster().getClusterArn());
    families.forEach(
        (entryPoint, expected) -> {
          List<Iam.Statement> runTask =
              iam.statements(role(entryPoint)).stream()
                  .filter(s -> s.allows("ecs:RunTask"))
                  .toList();
          String resources =
              runTask.stream().map(s -> s.resources().toString()).collect(Collectors.joining());
          for (String task : expected) {
            assertThat(resources).contains("task-definition/Livegate-" + task + ":*");
          }
          assertThat(runTask.stream().mapToLong(s -> s.resources().size()).sum())
              .isEqualTo(expected.size());
          runTask.forEach(
              s ->
                  assertThat(s.condition().path("ArnEquals").get("ecs:cluster"))
                      .isEqualTo(cluster));
          // The roles passed are exactly those of the tasks it starts, and only to ECS.
          List<JsonNode> roles = new ArrayList<>();
          for (String task : expected) {
            roles.add(iam.resolved(stack.tasks().get(task).getTaskRole().getRoleArn()));
            roles.add(iam.resolved(stack.tasks().get(task).getExecutionRole().getRoleArn()));
          }
          assertThat(iam.resources(role(entryPoint), "iam:PassRole"))
              .as(entryPoint)
              .containsExactlyInAnyOrderElementsOf(roles);
          iam.statements(role(entryPoint)).stream()
              .filter(s -> s.allows("iam:PassRole"))
              .forEach(
                  s ->
                      assertThat(s.condition().path("StringEquals").path("iam:PassedToService"))
                          .isEqualTo(
                              Iam.JSON.getNodeFactory().textNode("ecs-tasks.amazonaws.com")));
        });
  }

  @Test
  void onlyApprovalRequestSendsMailAndOnlyFromTheIdentity() {
    assertThat(rolesAllowed("ses:SendEmail")).containsExactly("approval-request");
    assertThat(iam.resources(role("approval-request"), "ses:SendEmail").toString())
        .contains(":identity/\",{\"Ref\":\"" + iam.logicalId(stack.mailFrom()) + "\"}");
  }

  @Test
  void planFilesAreWrittenByPlanAndReadByApplyAndTheConfirmPageAndLogsAreReadByAdminToo() {
    JsonNode plans = iam.resolved(stack.artifacts().arnForObjects(Tasks.PLANS_PREFIX + "*"));
    JsonNode logs =
        iam.resolved(stack.artifacts().arnForObjects(RuntimeContract.Artifacts.LOGS_PREFIX + "*"));
    JsonNode applies =
        iam.resolved(
            stack.artifacts().arnForObjects(RuntimeContract.Artifacts.APPLY_OUTPUTS_PREFIX + "*"));
    // terra-run also keeps each execution's log, beside the plans and apart from them; Apply also
    // how each apply ended, which no other role reads or writes
    assertThat(iam.resources(role("terra-run-plan"), "s3:PutObject"))
        .containsExactlyInAnyOrder(plans, logs);
    assertThat(iam.resources(role("terra-run-plan"), "s3:GetObject")).containsExactly(logs);
    assertThat(iam.resources(role("terra-run-apply"), "s3:GetObject"))
        .containsExactlyInAnyOrder(plans, logs, applies);
    assertThat(iam.resources(role("terra-run-apply"), "s3:PutObject"))
        .containsExactlyInAnyOrder(logs, applies);
    assertThat(iam.resources(role("approval-response"), "s3:GetObject")).containsExactly(plans);
    // admin reads the logs for livegate status --aws, and no plan
    assertThat(iam.resources(role("admin"), "s3:GetObject")).containsExactly(logs);
    assertThat(rolesAllowed("s3:PutObject"))
        .containsExactlyInAnyOrder("terra-run-plan", "terra-run-apply");
    assertThat(rolesAllowed("s3:GetObject"))
        .containsExactlyInAnyOrder(
            "terra-run-plan", "terra-run-apply", "approval-response", "admin");
  }

  @Test
  void theMergeLockIsTakenByTheEngineAndReleasedByTheTriggerOnItsParameterOnly() {
    JsonNode lock = iam.resolved(stack.lockParameterArn());
    assertThat(lock.toString()).contains("parameter/Livegate/merge-lock");
    assertThat(rolesAllowed("ssm:GetParameter"))
        .containsExactlyInAnyOrder("webhook", "trigger", "admin");
    assertThat(rolesAllowed("ssm:PutParameter"))
        .containsExactlyInAnyOrder("webhook", "trigger", "admin");
    for (String entryPoint : List.of("webhook", "trigger", "admin")) {
      assertThat(iam.resources(role(entryPoint), "ssm:GetParameter")).containsExactly(lock);
      assertThat(iam.resources(role(entryPoint), "ssm:PutParameter")).containsExactly(lock);
    }
    // The webhook never releases it; a failed scan is the trigger's to hand on, and an operator's
    // abort, resolve-rollback or release-lock admin's.
    assertThat(rolesAllowed("ssm:DeleteParameter")).containsExactlyInAnyOrder("trigger", "admin");
    for (String entryPoint : List.of("trigger", "admin")) {
      assertThat(iam.resources(role(entryPoint), "ssm:DeleteParameter")).containsExactly(lock);
    }
    assertThat(iam.actions(role("create-deploy-stack"))).noneMatch(a -> a.startsWith("ssm:"));
  }

  @Test
  void onlyIamIdentitiesAllowedToInvokeReachTheAdminLambda() {
    String admin = iam.logicalId(stack.functions().get("admin"));
    JsonNode resources = Shared.template().path("Resources");
    List<String> reachingAdmin = new ArrayList<>();
    resources
        .fields()
        .forEachRemaining(
            resource -> {
              String type = resource.getValue().path("Type").asText();
              boolean invokes =
                  type.equals("AWS::Lambda::Url")
                      || type.equals("AWS::Lambda::Permission")
                      || type.equals("AWS::Lambda::EventSourceMapping")
                      || type.equals("AWS::SNS::Subscription")
                      || type.equals("AWS::Events::Rule");
              if (invokes && resource.getValue().toString().contains("\"" + admin + "\"")) {
                reachingAdmin.add(resource.getKey() + " (" + type + ")");
              }
            });
    // No Function URL, no resource policy, no event source: lambda:Invoke through IAM only.
    assertThat(reachingAdmin).isEmpty();
    // And no entry point of livegate's own invokes it.
    assertThat(rolesAllowed("lambda:InvokeFunction")).doesNotContain("admin");
    for (IRole role : stack.roles().values()) {
      assertThat(iam.resources(role, "lambda:InvokeFunction").toString()).doesNotContain(admin);
    }
    // It answers no task token and reads neither the vote-link key nor the webhook secret.
    assertThat(iam.actions(role("admin"))).doesNotContainAnyElementsOf(TASK_TOKEN);
    assertThat(readersOf(stack.voteKey())).doesNotContain("admin");
    assertThat(readersOf(stack.webhookSecret())).doesNotContain("admin");
    // Its stack output is the name livegate admin --aws --function takes.
    assertThat(Shared.template().path("Outputs").path("AdminFunctionName").path("Value"))
        .isEqualTo(Iam.JSON.createObjectNode().put("Ref", admin));
  }

  @Test
  void aPlanScanGivesCreateDeployStackThePlanRolesAndNoApplyRole() {
    Fixtures.Synthesized synthesized = Fixtures.synth(Fixtures.config().scan("plan").build());
    LivegateStack planScan = synthesized.stack();
    Iam planIam = new Iam(planScan, Iam.JSON.valueToTree(synthesized.template().toJSON()));
    assertThat(planIam.resources(planScan.roles().get("create-deploy-stack"), "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN));
    assertThat(
            planScan.roles().entrySet().stream()
                .filter(entry -> planIam.actions(entry.getValue()).contains("sts:AssumeRole"))
                .map(Map.Entry::getKey))
        .containsExactlyInAnyOrder(
            "create-deploy-stack", "pr-plan-unit", "terra-run-plan", "terra-run-apply");
    assertThat(iam.actions(role("create-deploy-stack"))).doesNotContain("sts:AssumeRole");
  }
}
