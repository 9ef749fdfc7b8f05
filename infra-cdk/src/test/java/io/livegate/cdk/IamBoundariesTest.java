package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
                    "ecs:RunTask",
                    "iam:PassRole")),
            Map.entry(
                "trigger",
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
                    "sqs:SendMessage",
                    "sqs:GetQueueAttributes",
                    "sqs:GetQueueUrl")),
            Map.entry(
                "approval-request",
                union(
                    union(VPC_FUNCTION, TASK_TOKEN.toArray(String[]::new)),
                    "secretsmanager:GetSecretValue",
                    "ses:SendEmail",
                    "ses:SendRawEmail")),
            Map.entry(
                "approval-response",
                union(
                    union(VPC_FUNCTION, TASK_TOKEN.toArray(String[]::new)),
                    "secretsmanager:GetSecretValue",
                    "s3:GetObject")),
            Map.entry("migrate", union(VPC_FUNCTION, "secretsmanager:GetSecretValue")),
            Map.entry(
                "create-deploy-stack",
                Set.of(
                    "secretsmanager:GetSecretValue",
                    "ssm:GetParameter",
                    "ssm:PutParameter",
                    "ssm:DeleteParameter",
                    "lambda:InvokeFunction")),
            Map.entry(
                "pr-plan",
                Set.of("secretsmanager:GetSecretValue", "s3:PutObject", "sts:AssumeRole")),
            Map.entry(
                "terra-run-plan",
                union(
                    TASK_TOKEN, "secretsmanager:GetSecretValue", "s3:PutObject", "sts:AssumeRole")),
            Map.entry(
                "terra-run-apply",
                Set.of("secretsmanager:GetSecretValue", "s3:GetObject", "sts:AssumeRole")),
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
        .containsExactlyInAnyOrder("pr-plan", "terra-run-plan", "terra-run-apply");
  }

  @Test
  void prPlanNeverGetsAnApplyRoleTheVoteKeyTheMetadbOrADeploymentsPlans() {
    IRole prPlan = role("pr-plan");
    assertThat(iam.resources(prPlan, "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN));
    String everything = iam.statements(prPlan).toString();
    assertThat(everything).doesNotContain(Fixtures.SHARED_APPLY).doesNotContain(Fixtures.DEV_APPLY);
    assertThat(iam.resources(prPlan, "secretsmanager:GetSecretValue"))
        .containsExactly(iam.resolved(stack.githubToken().getSecretArn()));
    assertThat(iam.resources(prPlan, "s3:PutObject"))
        .containsExactly(
            iam.resolved(stack.artifacts().arnForObjects(WebhookEnvironment.PR_PLAN_PREFIX + "*")));
    assertThat(readersOf(stack.voteKey())).doesNotContain("pr-plan");
    assertThat(readersOf(stack.metadb().getSecret())).doesNotContain("pr-plan");
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
            "create-deploy-stack",
            "pr-plan",
            "terra-run-plan",
            "terra-run-apply");
    assertThat(readersOf(stack.metadb().getSecret()))
        .containsExactlyInAnyOrder(
            "webhook",
            "trigger",
            "approval-request",
            "approval-response",
            "migrate",
            "create-deploy-stack",
            "terra-run-plan",
            "terra-run-apply");
  }

  @Test
  void flowsAreStartedByTheTriggerAndAnsweredByPlanAndTheVotes() {
    JsonNode stateMachine = iam.resolved(stack.deployFlow().getStateMachineArn());
    assertThat(rolesAllowed("states:StartExecution")).containsExactly("trigger");
    assertThat(iam.resources(role("trigger"), "states:StartExecution"))
        .containsExactly(stateMachine);
    assertThat(rolesAllowed("states:SendTaskSuccess"))
        .containsExactlyInAnyOrder("terra-run-plan", "approval-request", "approval-response");
    for (String entryPoint : rolesAllowed("states:SendTaskSuccess")) {
      assertThat(iam.resources(role(entryPoint), "states:SendTaskSuccess"))
          .containsExactly(stateMachine);
    }
  }

  @Test
  void tasksAreStartedOnlyInTheClusterAndOnlyByWhoStartsThem() {
    Map<String, List<String>> families =
        Map.of(
            "webhook", List.of("Livegate-create-deploy-stack", "Livegate-pr-plan"),
            "trigger", List.of("Livegate-create-deploy-stack"),
            "deploy-flow", List.of("Livegate-terra-run-plan", "Livegate-terra-run-apply"));
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
          for (String family : expected) {
            assertThat(resources).contains("task-definition/" + family + ":*");
          }
          assertThat(runTask.stream().mapToLong(s -> s.resources().size()).sum())
              .isEqualTo(expected.size());
          runTask.forEach(
              s ->
                  assertThat(s.condition().path("ArnEquals").get("ecs:cluster"))
                      .isEqualTo(cluster));
          // The roles passed are exactly those of the tasks it starts.
          List<JsonNode> passed = iam.resources(role(entryPoint), "iam:PassRole");
          assertThat(passed).hasSize(2 * expected.size());
        });
  }

  @Test
  void onlyApprovalRequestSendsMailAndOnlyFromTheIdentity() {
    assertThat(rolesAllowed("ses:SendEmail")).containsExactly("approval-request");
    assertThat(iam.resources(role("approval-request"), "ses:SendEmail").toString())
        .contains(":identity/\",{\"Ref\":\"" + iam.logicalId(stack.mailFrom()) + "\"}");
  }

  @Test
  void planFilesAreWrittenByPlanAndReadByApplyAndTheConfirmPage() {
    JsonNode plans =
        iam.resolved(stack.artifacts().arnForObjects(LivegateStack.PLANS_PREFIX + "*"));
    assertThat(iam.resources(role("terra-run-plan"), "s3:PutObject")).containsExactly(plans);
    assertThat(iam.resources(role("terra-run-apply"), "s3:GetObject")).containsExactly(plans);
    assertThat(iam.resources(role("approval-response"), "s3:GetObject")).containsExactly(plans);
    assertThat(rolesAllowed("s3:PutObject")).containsExactlyInAnyOrder("terra-run-plan", "pr-plan");
  }

  @Test
  void theMergeLockIsTakenAndReleasedOnItsParameterOnly() {
    JsonNode lock = iam.resolved(stack.lockParameterArn());
    assertThat(lock.toString()).contains("parameter/Livegate/merge-lock");
    for (String entryPoint : List.of("webhook", "trigger", "create-deploy-stack")) {
      assertThat(iam.resources(role(entryPoint), "ssm:PutParameter")).containsExactly(lock);
    }
    assertThat(rolesAllowed("ssm:DeleteParameter"))
        .containsExactlyInAnyOrder("trigger", "create-deploy-stack");
  }

  @Test
  void aPlanScanGivesCreateDeployStackThePlanRolesAndNoApplyRole() {
    Fixtures.Synthesized synthesized = Fixtures.synth(Fixtures.config().scan("plan").build());
    LivegateStack planScan = synthesized.stack();
    Iam planIam = new Iam(planScan, Iam.JSON.valueToTree(synthesized.template().toJSON()));
    assertThat(planIam.resources(planScan.roles().get("create-deploy-stack"), "sts:AssumeRole"))
        .containsExactlyInAnyOrderElementsOf(literal(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN));
    assertThat(iam.actions(role("create-deploy-stack"))).doesNotContain("sts:AssumeRole");
  }
}
