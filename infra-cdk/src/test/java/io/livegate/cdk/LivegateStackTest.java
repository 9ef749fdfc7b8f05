package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.CopyOptions;
import software.amazon.awscdk.FileSystem;
import software.amazon.awscdk.IgnoreMode;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.constructs.IConstruct;

/** The resources of the stack and their key properties, on the fixture installation. */
class LivegateStackTest {
  private final LivegateStack stack = Shared.stack();
  private final Template template = Shared.synthesized().template();
  private final JsonNode json = Shared.template();

  private String id(IConstruct construct) {
    return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
  }

  private JsonNode resource(IConstruct construct) {
    return json.path("Resources").path(id(construct));
  }

  private Map<String, JsonNode> resources(String type) {
    return resources(json, type);
  }

  /** The resources of {@code type} in {@code template}, by logical id. */
  static Map<String, JsonNode> resources(JsonNode template, String type) {
    Map<String, JsonNode> found = new TreeMap<>();
    template
        .path("Resources")
        .fields()
        .forEachRemaining(
            entry -> {
              if (entry.getValue().path("Type").asText().equals(type)) {
                found.put(entry.getKey(), entry.getValue());
              }
            });
    return found;
  }

  private JsonNode ref(IConstruct construct) {
    return Iam.JSON.createObjectNode().put("Ref", id(construct));
  }

  private JsonNode resolved(Object value) {
    return Iam.JSON.valueToTree(stack.resolve(value));
  }

  @Test
  void theMetadbIsAnEncryptedAuroraPostgresqlServerlessV2ClusterWithGeneratedCredentials() {
    template.resourceCountIs("AWS::RDS::DBCluster", 1);
    JsonNode cluster = resource(stack.metadb()).path("Properties");
    assertThat(cluster.path("Engine").asText()).isEqualTo("aurora-postgresql");
    assertThat(cluster.path("EngineVersion").asText()).startsWith("16.");
    assertThat(cluster.path("StorageEncrypted").asBoolean()).isTrue();
    assertThat(cluster.path("DeletionProtection").asBoolean()).isTrue();
    assertThat(cluster.path("DatabaseName").asText()).isEqualTo("livegate");
    assertThat(cluster.path("ServerlessV2ScalingConfiguration").path("MinCapacity").asDouble())
        .isEqualTo(0.5);
    assertThat(cluster.path("ServerlessV2ScalingConfiguration").path("MaxCapacity").asDouble())
        .isEqualTo(2);
    assertThat(cluster.path("MasterUserPassword").toString()).contains("resolve:secretsmanager");
    template.hasResourceProperties(
        "AWS::RDS::DBInstance",
        Map.of("DBInstanceClass", "db.serverless", "Engine", "aurora-postgresql"));
    assertThat(resources("AWS::SecretsManager::Secret").values())
        .filteredOn(
            secret ->
                secret
                    .path("Properties")
                    .path("GenerateSecretString")
                    .path("SecretStringTemplate")
                    .asText()
                    .equals("{\"username\":\"livegate\"}"))
        .hasSize(1);
    template.hasResourceProperties(
        "AWS::SecretsManager::SecretTargetAttachment", Map.of("TargetType", "AWS::RDS::DBCluster"));
  }

  @Test
  void onlyTheLambdaAndTaskSecurityGroupsReachTheMetadbAndOnlyOnItsPort() {
    JsonNode metadbGroup = resolved(stack.metadbSecurityGroup().getSecurityGroupId());
    List<JsonNode> ingress = new ArrayList<>();
    resources("AWS::EC2::SecurityGroupIngress").values().stream()
        .map(r -> r.path("Properties"))
        .filter(p -> p.path("GroupId").equals(metadbGroup))
        .forEach(ingress::add);
    assertThat(ingress)
        .extracting(p -> p.path("SourceSecurityGroupId"))
        .containsExactlyInAnyOrder(
            resolved(stack.lambdaSecurityGroup().getSecurityGroupId()),
            resolved(stack.taskSecurityGroup().getSecurityGroupId()));
    assertThat(ingress)
        .allSatisfy(
            p -> {
              assertThat(p.path("FromPort").asInt()).isEqualTo(5432);
              assertThat(p.path("ToPort").asInt()).isEqualTo(5432);
              assertThat(p.path("IpProtocol").asText()).isEqualTo("tcp");
            });
    JsonNode group = resource(stack.metadbSecurityGroup()).path("Properties");
    assertThat(group.path("SecurityGroupIngress").isMissingNode()).isTrue();
    assertThat(
            resolved(
                stack.metadb().getConnections().getSecurityGroups().get(0).getSecurityGroupId()))
        .isEqualTo(metadbGroup);
    assertThat(stack.metadb().getConnections().getSecurityGroups()).hasSize(1);
  }

  @Test
  void everyFunctionRunsJava21InThePrivateSubnetsWithTheLambdaSecurityGroup() {
    Map<String, JsonNode> functions = resources("AWS::Lambda::Function");
    assertThat(functions).hasSize(6);
    JsonNode lambdaGroup = resolved(stack.lambdaSecurityGroup().getSecurityGroupId());
    functions
        .values()
        .forEach(
            function -> {
              JsonNode properties = function.path("Properties");
              assertThat(properties.path("Runtime").asText()).isEqualTo("java25");
              assertThat(properties.path("VpcConfig").path("SecurityGroupIds"))
                  .containsExactly(lambdaGroup);
              assertThat(properties.path("VpcConfig").path("SubnetIds").toString())
                  .contains("VpcprivateSubnet");
              assertThat(
                      properties
                          .path("Environment")
                          .path("Variables")
                          .path("LIVEGATE_DB_URL")
                          .toString())
                  .contains("jdbc:postgresql://")
                  .contains("/livegate?sslmode=require");
            });
  }

  @Test
  void handlersMemoryAndTimeoutsAreTheChosenOnes() {
    record Expected(String handler, int memory, int timeout, boolean snapStart) {}
    Map<String, Expected> expected =
        Map.of(
            "webhook", new Expected(RuntimeContract.Handlers.WEBHOOK, 1024, 10, true),
            "trigger", new Expected(RuntimeContract.Handlers.TRIGGER, 1024, 60, true),
            "approval-request",
                new Expected(RuntimeContract.Handlers.APPROVAL_REQUEST, 1024, 60, true),
            "approval-response",
                new Expected(RuntimeContract.Handlers.APPROVAL_RESPONSE, 1024, 15, true),
            "migrate", new Expected(RuntimeContract.Handlers.MIGRATE, 1024, 300, false),
            "admin", new Expected(RuntimeContract.Handlers.ADMIN, 1024, 60, false));
    assertThat(stack.functions().keySet()).isEqualTo(expected.keySet());
    expected.forEach(
        (name, want) -> {
          JsonNode properties = resource(stack.functions().get(name)).path("Properties");
          assertThat(properties.path("Handler").asText()).as(name).isEqualTo(want.handler());
          assertThat(properties.path("MemorySize").asInt()).as(name).isEqualTo(want.memory());
          assertThat(properties.path("Timeout").asInt()).as(name).isEqualTo(want.timeout());
          assertThat(properties.path("SnapStart").path("ApplyOn").asText(""))
              .as(name)
              .isEqualTo(want.snapStart() ? "PublishedVersions" : "");
        });
  }

  @Test
  void onlyTheFunctionsBehindPublicUrlsHaveReservedConcurrency() {
    stack
        .functions()
        .forEach(
            (name, function) ->
                assertThat(
                        resource(function).path("Properties").path("ReservedConcurrentExecutions"))
                    .as(name)
                    .hasToString(
                        Set.of("webhook", "approval-response").contains(name) ? "10" : ""));
    JsonNode none =
        Iam.JSON.valueToTree(
            Fixtures.synth(Fixtures.config().functionUrlConcurrency(0).build())
                .template()
                .toJSON());
    assertThat(none.toString()).doesNotContain("ReservedConcurrentExecutions");
  }

  @Test
  void everyInvokerCallsTheLiveAliasOfAPublishedVersion() {
    Map<String, JsonNode> aliases = resources("AWS::Lambda::Alias");
    assertThat(aliases).hasSize(4);
    aliases
        .values()
        .forEach(
            alias -> {
              assertThat(alias.path("Properties").path("Name").asText())
                  .isEqualTo(Functions.LIVE_ALIAS);
              String version =
                  alias
                      .path("Properties")
                      .path("FunctionVersion")
                      .path("Fn::GetAtt")
                      .get(0)
                      .asText();
              assertThat(json.path("Resources").path(version).path("Type").asText())
                  .isEqualTo("AWS::Lambda::Version");
              assertThat(alias.path("DependsOn").toString()).contains(id(stack.schema()));
            });
    Map<String, JsonNode> urls = resources("AWS::Lambda::Url");
    assertThat(urls.values())
        .extracting(
            u -> u.path("Properties").path("TargetFunctionArn").path("Fn::GetAtt").get(0).asText())
        .containsExactlyInAnyOrder(
            id(stack.functions().get("webhook")), id(stack.functions().get("approval-response")));
    urls.values()
        .forEach(
            url -> {
              assertThat(url.path("Properties").path("Qualifier").asText())
                  .isEqualTo(Functions.LIVE_ALIAS);
              assertThat(url.path("Properties").path("AuthType").asText()).isEqualTo("NONE");
            });
    JsonNode subscription =
        resources("AWS::SNS::Subscription").values().iterator().next().path("Properties");
    assertThat(subscription.path("Protocol").asText()).isEqualTo("lambda");
    assertThat(subscription.path("TopicArn")).isEqualTo(ref(stack.approvalTopic()));
    String endpoint = subscription.path("Endpoint").path("Ref").asText();
    assertThat(aliases).containsKey(endpoint);
    assertThat(endpoint).startsWith("ApprovalRequestLiveAlias");
  }

  @Test
  void everyLogGroupKeepsLogsForTheConfiguredRetention() {
    Map<String, JsonNode> logGroups = resources("AWS::Logs::LogGroup");
    // Six functions, five tasks, the deploy flow.
    assertThat(logGroups).hasSize(12);
    logGroups
        .values()
        .forEach(
            group ->
                assertThat(group.path("Properties").path("RetentionInDays").asInt()).isEqualTo(30));
    resources("AWS::Lambda::Function")
        .values()
        .forEach(
            function ->
                assertThat(logGroups)
                    .containsKey(
                        function
                            .path("Properties")
                            .path("LoggingConfig")
                            .path("LogGroup")
                            .path("Ref")
                            .asText()));
    resources("AWS::ECS::TaskDefinition")
        .values()
        .forEach(
            task -> {
              JsonNode log =
                  task.path("Properties")
                      .path("ContainerDefinitions")
                      .get(0)
                      .path("LogConfiguration");
              assertThat(log.path("LogDriver").asText()).isEqualTo("awslogs");
              assertThat(logGroups)
                  .containsKey(log.path("Options").path("awslogs-group").path("Ref").asText());
            });
    Template weekly = Fixtures.synth(Fixtures.config().logRetentionDays(7).build()).template();
    weekly.allResourcesProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 7));
  }

  @Test
  void theFargateTasksRunTheImageAssetWithTheirOwnRolesAndContainers() {
    Map<String, JsonNode> tasks = resources("AWS::ECS::TaskDefinition");
    assertThat(tasks).hasSize(5);
    Map<String, String> containers =
        Map.of(
            "create-deploy-stack", Tasks.CONTAINER,
            "pr-plan-dispatch", Tasks.CONTAINER,
            "pr-plan-unit", Tasks.CONTAINER,
            "terra-run-plan", DeployFlow.TERRA_RUN,
            "terra-run-apply", DeployFlow.TERRA_RUN);
    // The default commands; who starts a task overrides them with the whole argv.
    Map<String, List<String>> commands =
        Map.of(
            "create-deploy-stack", List.of("create-deploy-stack"),
            "pr-plan-dispatch", List.of("pr-plan", "dispatch"),
            "pr-plan-unit", List.of("pr-plan", "unit"),
            "terra-run-plan", List.of("terra-run"),
            "terra-run-apply", List.of("terra-run"));
    assertThat(stack.tasks().keySet()).isEqualTo(containers.keySet());
    containers.forEach(
        (name, container) -> {
          JsonNode properties = resource(stack.tasks().get(name)).path("Properties");
          assertThat(properties.path("Family").asText()).isEqualTo("Livegate-" + name);
          assertThat(properties.path("RequiresCompatibilities"))
              .containsExactly(Iam.JSON.getNodeFactory().textNode("FARGATE"));
          assertThat(properties.path("Cpu").asText()).isEqualTo("1024");
          assertThat(properties.path("Memory").asText()).isEqualTo("4096");
          assertThat(properties.path("TaskRoleArn").path("Fn::GetAtt").get(0).asText())
              .isEqualTo(new Iam(stack, json).logicalId(stack.roles().get(name)));
          JsonNode definition = properties.path("ContainerDefinitions").get(0);
          assertThat(definition.path("Name").asText()).isEqualTo(container);
          assertThat(definition.path("Image").toString())
              .contains("cdk-hnb659fds-container-assets");
          assertThat(definition.path("Command"))
              .extracting(JsonNode::asText)
              .as(name)
              .containsExactlyElementsOf(commands.get(name));
          // livegate doctor --aws reads which releases the image installs from these labels.
          assertThat(definition.path("DockerLabels").toString())
              .as(name)
              .isEqualTo(
                  "{\"io.livegate.terraform-version\":\"1.11.4\","
                      + "\"io.livegate.terragrunt-version\":\"1.1.3\"}");
          boolean readsAccounts = !name.startsWith(DeployFlow.TERRA_RUN);
          assertThat(definition.path("Secrets").toString().contains("LIVEGATE_ACCOUNTS"))
              .as(name + " gets the accounts")
              .isEqualTo(readsAccounts);
        });
    JsonNode createDeployStack =
        resource(stack.tasks().get("create-deploy-stack"))
            .path("Properties")
            .path("ContainerDefinitions")
            .get(0);
    assertThat(createDeployStack.path("Secrets").get(0).path("ValueFrom").toString())
        .contains(id(stack.accountsParameter()));
  }

  @Test
  void theImageContextHoldsOnlyTheDockerfileAndTheTaskJar(@TempDir Path dir) throws IOException {
    Path source = dir.resolve("repo");
    for (String file :
        List.of(
            SourceTree.DOCKERFILE,
            SourceTree.TASKS_JAR,
            "ecs-tasks/target/classes/Tasks.class",
            "ecs-tasks/pom.xml",
            SourceTree.LAMBDA_JAR,
            "core/target/classes/A.class",
            "README.md")) {
      Files.createDirectories(source.resolve(file).getParent());
      Files.writeString(source.resolve(file), file);
    }
    Path copy = dir.resolve("context");
    FileSystem.copyDirectory(
        source.toString(),
        copy.toString(),
        CopyOptions.builder()
            .exclude(SourceTree.IMAGE_CONTEXT)
            .ignoreMode(IgnoreMode.DOCKER)
            .build());
    try (Stream<Path> files = Files.walk(copy)) {
      assertThat(files.filter(Files::isRegularFile).map(f -> copy.relativize(f).toString()))
          .containsExactlyInAnyOrder(SourceTree.DOCKERFILE, SourceTree.TASKS_JAR);
    }
  }

  @Test
  void theDeployFlowIsTheRenderedAslWithBothTaskDefinitionsAndLoggingOn() throws IOException {
    JsonNode properties = resource(stack.deployFlow()).path("Properties");
    assertThat(properties.path("StateMachineType").asText()).isEqualTo("STANDARD");
    JsonNode logging = properties.path("LoggingConfiguration");
    assertThat(logging.path("Level").asText()).isEqualTo("ALL");
    assertThat(
            logging
                .path("Destinations")
                .get(0)
                .path("CloudWatchLogsLogGroup")
                .path("LogGroupArn")
                .toString())
        .contains("DeployFlowLogs");
    // The definition as CloudFormation will see it, with each reference written as its logical id.
    StringBuilder definition = new StringBuilder();
    for (JsonNode part : properties.path("DefinitionString").path("Fn::Join").get(1)) {
      definition.append(
          part.isTextual()
              ? part.asText()
              : "REF:" + part.findValuesAsText("Ref") + part.findValuesAsText("Fn::GetAtt"));
    }
    assertThat(definition.toString()).doesNotContain("${");
    JsonNode flow = Iam.JSON.readTree(definition.toString());
    assertThat(flow.path("TimeoutSeconds").asLong()).isEqualTo(8 * 24 * 3600);
    String planTask =
        flow.path("States").path("Plan").path("Parameters").path("TaskDefinition").asText();
    String applyTask =
        flow.path("States").path("Apply").path("Parameters").path("TaskDefinition").asText();
    assertThat(planTask).contains(id(stack.tasks().get("terra-run-plan")));
    assertThat(applyTask).contains(id(stack.tasks().get("terra-run-apply")));
    assertThat(
            flow.path("States")
                .path("RequestApproval")
                .path("Parameters")
                .path("TopicArn")
                .asText())
        .contains(id(stack.approvalTopic()));
    assertThat(
            flow.path("States")
                .path("Plan")
                .path("Parameters")
                .path("Overrides")
                .path("ContainerOverrides")
                .get(0)
                .path("Name")
                .asText())
        .isEqualTo(DeployFlow.TERRA_RUN);
  }

  @Test
  void statusChangesIncludingTimedOutGoToTheTriggerWithADeadLetterQueue() {
    JsonNode rule = rule("FlowStatusChanges");
    JsonNode pattern = rule.path("EventPattern");
    assertThat(pattern.path("source"))
        .containsExactly(Iam.JSON.getNodeFactory().textNode("aws.states"));
    assertThat(pattern.path("detail-type").get(0).asText())
        .isEqualTo("Step Functions Execution Status Change");
    assertThat(pattern.path("detail").path("status"))
        .extracting(JsonNode::asText)
        .containsExactlyInAnyOrder("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED");
    assertThat(pattern.path("detail").path("stateMachineArn").get(0))
        .isEqualTo(ref(stack.deployFlow()));
    JsonNode target = rule.path("Targets").get(0);
    assertThat(target.path("Arn").path("Ref").asText()).startsWith("TriggerLiveAlias");
    JsonNode queueArn = resolved(stack.deadLetters().getQueueArn());
    assertThat(target.path("DeadLetterConfig").path("Arn")).isEqualTo(queueArn);
    JsonNode invokeConfig =
        resources("AWS::Lambda::EventInvokeConfig").values().stream()
            .map(config -> config.path("Properties"))
            .filter(
                config -> config.path("FunctionName").equals(ref(stack.functions().get("trigger"))))
            .findFirst()
            .orElseThrow();
    assertThat(invokeConfig.path("Qualifier").toString()).contains("TriggerLiveAlias");
    assertThat(invokeConfig.path("DestinationConfig").path("OnFailure").path("Destination"))
        .isEqualTo(queueArn);
    template.hasResourceProperties(
        "AWS::SQS::Queue",
        Map.of("SqsManagedSseEnabled", true, "MessageRetentionPeriod", 14 * 24 * 3600));
  }

  @Test
  void stoppedTasksOfLivegatesClusterGoToTheTriggerWithADeadLetterQueue() {
    JsonNode rule = rule("StoppedTasks");
    JsonNode pattern = rule.path("EventPattern");
    assertThat(pattern.path("source").get(0).asText()).isEqualTo("aws.ecs");
    assertThat(pattern.path("detail-type").get(0).asText()).isEqualTo("ECS Task State Change");
    assertThat(pattern.path("detail").path("lastStatus").get(0).asText()).isEqualTo("STOPPED");
    assertThat(pattern.path("detail").path("clusterArn").get(0))
        .isEqualTo(resolved(stack.cluster().getClusterArn()));
    JsonNode target = rule.path("Targets").get(0);
    assertThat(target.path("Arn").path("Ref").asText()).startsWith("TriggerLiveAlias");
    assertThat(target.path("DeadLetterConfig").path("Arn"))
        .isEqualTo(resolved(stack.deadLetters().getQueueArn()));
  }

  /** The properties of the EventBridge rule whose logical id starts with {@code prefix}. */
  private JsonNode rule(String prefix) {
    return resources("AWS::Events::Rule").entrySet().stream()
        .filter(entry -> entry.getKey().startsWith(prefix))
        .findFirst()
        .orElseThrow()
        .getValue()
        .path("Properties");
  }

  @Test
  void theArtifactBucketIsEncryptedPrivateAndExpiresPlans() {
    JsonNode bucket = resource(stack.artifacts()).path("Properties");
    assertThat(
            bucket
                .path("BucketEncryption")
                .path("ServerSideEncryptionConfiguration")
                .get(0)
                .path("ServerSideEncryptionByDefault")
                .path("SSEAlgorithm")
                .asText())
        .isEqualTo("AES256");
    JsonNode blocked = bucket.path("PublicAccessBlockConfiguration");
    for (String setting :
        List.of(
            "BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets")) {
      assertThat(blocked.path(setting).asBoolean()).as(setting).isTrue();
    }
    JsonNode rule = bucket.path("LifecycleConfiguration").path("Rules").get(0);
    assertThat(rule.path("Status").asText()).isEqualTo("Enabled");
    assertThat(rule.path("ExpirationInDays").asInt()).isEqualTo(30);
    template.hasResourceProperties(
        "AWS::S3::BucketPolicy",
        Map.of(
            "PolicyDocument",
            Match.objectLike(
                Map.of(
                    "Statement",
                    Match.arrayWith(
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "Effect",
                                    "Deny",
                                    "Condition",
                                    Map.of("Bool", Map.of("aws:SecureTransport", "false"))))))))));
  }

  @Test
  void messagingMailParametersAndSecretsAreThere() {
    JsonNode topic = resource(stack.approvalTopic()).path("Properties");
    assertThat(topic.path("KmsMasterKeyId").toString()).contains("alias/aws/sns");
    template.hasResourceProperties(
        "AWS::SES::EmailIdentity", Map.of("EmailIdentity", Fixtures.MAIL_FROM));
    JsonNode parameter = resource(stack.accountsParameter()).path("Properties");
    assertThat(parameter.path("Type").asText()).isEqualTo("String");
    assertThat(parameter.path("Value").asText())
        .isEqualTo(Fixtures.config().build().accountsText());
    for (var secret : List.of(stack.githubToken(), stack.webhookSecret(), stack.voteKey())) {
      JsonNode generated = resource(secret).path("Properties").path("GenerateSecretString");
      assertThat(generated.path("PasswordLength").asInt()).isEqualTo(64);
      assertThat(generated.path("ExcludePunctuation").asBoolean()).isTrue();
    }
    assertThat(resource(stack.webhookSecret()).path("Properties").path("Name").asText())
        .isEqualTo("Livegate/webhook-secret");
    JsonNode webhook =
        resource(stack.functions().get("webhook"))
            .path("Properties")
            .path("Environment")
            .path("Variables");
    assertThat(webhook.path(RuntimeContract.Engine.LOCK_PARAMETER).asText())
        .isEqualTo("/Livegate/merge-lock");
    assertThat(webhook.path(RuntimeContract.Webhook.REPOSITORY).asText())
        .isEqualTo("acme/infrastructure-live");
    assertThat(webhook.path(RuntimeContract.Ecs.CONTAINER).asText()).isEqualTo(Tasks.CONTAINER);
    JsonNode trigger = resource(stack.functions().get("trigger")).path("Properties");
    assertThat(trigger.path("FunctionName").asText()).isEqualTo("Livegate-trigger");
    JsonNode createDeployStack =
        resource(stack.tasks().get("create-deploy-stack"))
            .path("Properties")
            .path("ContainerDefinitions")
            .get(0)
            .path("Environment");
    assertThat(createDeployStack.toString())
        .contains("LIVEGATE_TRIGGER_FUNCTION")
        .contains("function:Livegate-trigger:live");
  }

  @Test
  void theMigrationRunsAsACustomResourceAfterTheMetadbAndAgainWhenAMigrationChanges() {
    JsonNode schema = json.path("Resources").path(id(stack.schema()));
    assertThat(schema.path("Type").asText()).isEqualTo("Custom::LivegateMetadbSchema");
    assertThat(schema.path("Properties").path("ServiceToken").path("Fn::GetAtt").get(0).asText())
        .isEqualTo(id(stack.functions().get("migrate")));
    assertThat(schema.path("Properties").path("MigrationsHash").asText())
        .isEqualTo(Fixtures.SOURCE.migrationsHash())
        .hasSize(64);
    assertThat(schema.path("DependsOn").toString()).contains(id(stack.metadb()));
  }

  @Test
  void theOutputsGiveTheWebhookUrlItsSecretAndTheVoteBaseUrl() {
    JsonNode outputs = json.path("Outputs");
    assertThat(outputs.path("WebhookUrl").path("Value").path("Fn::GetAtt").get(1).asText())
        .isEqualTo("FunctionUrl");
    assertThat(outputs.path("WebhookSecretName").path("Value").asText())
        .isEqualTo("Livegate/webhook-secret");
    assertThat(outputs.path("GithubTokenSecretName").path("Value").asText())
        .isEqualTo("Livegate/github-token");
    assertThat(outputs.path("VoteBaseUrl").path("Value").toString())
        .contains("https://")
        .contains("ApprovalResponseLiveAliasFunctionUrl");
  }

  @Test
  void theTaskRolesThatAccountRolesMustTrustAreOutputs() {
    JsonNode outputs = json.path("Outputs");
    assertThat(outputs.path("PlanTaskRoleArn").path("Value"))
        .isEqualTo(resolved(stack.tasks().get("terra-run-plan").getTaskRole().getRoleArn()));
    assertThat(outputs.path("ApplyTaskRoleArn").path("Value"))
        .isEqualTo(resolved(stack.tasks().get("terra-run-apply").getTaskRole().getRoleArn()));
    assertThat(outputs.path("PullRequestPlanTaskRoleArn").path("Value"))
        .isEqualTo(resolved(stack.tasks().get("pr-plan-unit").getTaskRole().getRoleArn()));
  }

  @Test
  void everyHandlerTheStackDeploysIsInTheLambdaJar() throws IOException {
    try (JarFile jar = new JarFile(Fixtures.SOURCE.lambdaJar().toFile())) {
      for (var function : stack.functions().values()) {
        String handler = resource(function).path("Properties").path("Handler").asText();
        String entry = handler.replace('.', '/') + ".class";
        assertThat(jar.getEntry(entry)).as(entry).isNotNull();
      }
    }
  }

  private static final Set<String> METADB =
      Set.of(RuntimeContract.Metadb.URL, RuntimeContract.Metadb.SECRET);
  private static final Set<String> ECS =
      Set.of(
          RuntimeContract.Ecs.CLUSTER,
          RuntimeContract.Ecs.SUBNETS,
          RuntimeContract.Ecs.SECURITY_GROUPS,
          RuntimeContract.Ecs.CONTAINER);

  /** What AwsEngine reads (its optional status URL aside). */
  private static final Set<String> ENGINE =
      union(
          METADB,
          ECS,
          Set.of(
              RuntimeContract.Engine.STATE_MACHINE,
              RuntimeContract.Engine.LOCK_PARAMETER,
              RuntimeContract.Engine.LOCK_SCOPE,
              RuntimeContract.Engine.APPROVAL_TIMEOUT,
              RuntimeContract.Engine.FAILURE_POLICY,
              RuntimeContract.Engine.RUNNER,
              RuntimeContract.Scan.TASK_DEFINITION,
              RuntimeContract.GitHub.TOKEN_SECRET,
              RuntimeContract.Webhook.REPOSITORY));

  /** What every task reads. */
  private static final Set<String> TASK =
      Set.of(
          "AWS_REGION",
          RuntimeContract.Tasks.REPO_URL,
          RuntimeContract.GitHub.TOKEN_SECRET,
          RuntimeContract.Webhook.REPOSITORY,
          RuntimeContract.Tasks.LOG_URL);

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    Set<String> all = new TreeSet<>();
    for (Set<String> set : sets) {
      all.addAll(set);
    }
    return all;
  }

  static JsonNode functionVariables(LivegateStack on, JsonNode template, String function) {
    return template
        .path("Resources")
        .path(
            on.getLogicalId((CfnElement) on.functions().get(function).getNode().getDefaultChild()))
        .path("Properties")
        .path("Environment")
        .path("Variables");
  }

  private JsonNode container(LivegateStack on, JsonNode template, String task) {
    return template
        .path("Resources")
        .path(on.getLogicalId((CfnElement) on.tasks().get(task).getNode().getDefaultChild()))
        .path("Properties")
        .path("ContainerDefinitions")
        .get(0);
  }

  /** A container's variables, plain and from secrets, by name. */
  private static Map<String, JsonNode> containerVariables(JsonNode container) {
    Map<String, JsonNode> variables = new TreeMap<>();
    container
        .path("Environment")
        .forEach(v -> variables.put(v.path("Name").asText(), v.path("Value")));
    container
        .path("Secrets")
        .forEach(v -> variables.put(v.path("Name").asText(), v.path("ValueFrom")));
    return variables;
  }

  @Test
  void everyEntryPointGetsExactlyTheVariablesItsWiringReads() {
    Map<String, Set<String>> functions =
        Map.of(
            "webhook",
            union(
                ENGINE,
                Set.of(
                    RuntimeContract.Webhook.WEBHOOK_SECRET,
                    RuntimeContract.Webhook.REPOSITORY,
                    RuntimeContract.Webhook.TRUNK,
                    RuntimeContract.Webhook.ALLOW_FORK_PRS,
                    RuntimeContract.PullRequestPlans.TASK_DEFINITION,
                    RuntimeContract.Tasks.TRIGGER_FUNCTION)),
            "trigger",
            union(
                ENGINE,
                Set.of(
                    RuntimeContract.Watchdog.SCAN_TIMEOUT,
                    RuntimeContract.Watchdog.METRIC_NAMESPACE)));
    functions.forEach(
        (name, expected) -> {
          Set<String> names = new TreeSet<>();
          functionVariables(stack, json, name).fieldNames().forEachRemaining(names::add);
          assertThat(names).as(name).isEqualTo(expected);
        });
    Map<String, Set<String>> tasks =
        Map.of(
            "create-deploy-stack",
            union(
                TASK,
                METADB,
                Set.of(
                    RuntimeContract.Engine.RUNNER,
                    RuntimeContract.Tasks.SCAN,
                    RuntimeContract.Tasks.TRIGGER_FUNCTION,
                    RuntimeContract.Tasks.ACCOUNTS)),
            // No metadb for the pr-plan tasks, and no lock for anyone but the engine.
            "pr-plan-dispatch",
            union(
                TASK,
                ECS,
                Set.of(
                    RuntimeContract.Tasks.ACCOUNTS,
                    RuntimeContract.Tasks.PLAN_FORKS,
                    RuntimeContract.Tasks.TRIGGER_FUNCTION,
                    RuntimeContract.PullRequestPlans.TASK_DEFINITION,
                    RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION)),
            "pr-plan-unit",
            union(TASK, Set.of(RuntimeContract.Tasks.ACCOUNTS, RuntimeContract.Engine.RUNNER)),
            "terra-run-plan",
            union(
                TASK,
                METADB,
                Set.of(
                    RuntimeContract.Engine.RUNNER,
                    RuntimeContract.Artifacts.PLAN_BUCKET,
                    RuntimeContract.Tasks.ROLE_SESSION_DURATION)),
            "terra-run-apply",
            union(
                TASK,
                METADB,
                Set.of(
                    RuntimeContract.Engine.RUNNER,
                    RuntimeContract.Artifacts.PLAN_BUCKET,
                    RuntimeContract.Tasks.ROLE_SESSION_DURATION)));
    assertThat(stack.tasks().keySet()).isEqualTo(tasks.keySet());
    tasks.forEach(
        (name, expected) ->
            assertThat(containerVariables(container(stack, json, name)).keySet())
                .as(name)
                .isEqualTo(expected));
    // A long apply renews its account role's session every hour by default.
    assertThat(
            containerVariables(container(stack, json, "terra-run-apply"))
                .get(RuntimeContract.Tasks.ROLE_SESSION_DURATION))
        .hasToString("\"PT1H\"");
  }

  @Test
  void theEngineStartsTheFlowAndCreateDeployStackAndTheWebhookStartsTheDispatch() {
    for (String function : List.of("webhook", "trigger")) {
      JsonNode variables = functionVariables(stack, json, function);
      assertThat(variables.path(RuntimeContract.Engine.STATE_MACHINE))
          .as(function)
          .isEqualTo(ref(stack.deployFlow()));
      assertThat(variables.path(RuntimeContract.Scan.TASK_DEFINITION))
          .as(function)
          .isEqualTo(ref(stack.tasks().get("create-deploy-stack")));
      assertThat(variables.path(RuntimeContract.Ecs.CLUSTER))
          .as(function)
          .isEqualTo(resolved(stack.cluster().getClusterArn()));
      assertThat(variables.path(RuntimeContract.Engine.LOCK_SCOPE).asText())
          .as(function)
          .isEqualTo("repo");
      assertThat(variables.path(RuntimeContract.GitHub.TOKEN_SECRET))
          .as(function)
          .isEqualTo(resolved(stack.githubToken().getSecretArn()));
    }
    assertThat(
            functionVariables(stack, json, "webhook")
                .path(RuntimeContract.PullRequestPlans.TASK_DEFINITION))
        .isEqualTo(ref(stack.tasks().get("pr-plan-dispatch")));
    Map<String, JsonNode> dispatch = containerVariables(container(stack, json, "pr-plan-dispatch"));
    // Its own definition by family (an ARN would refer to itself); the unit's by reference.
    assertThat(dispatch.get(RuntimeContract.PullRequestPlans.TASK_DEFINITION).asText())
        .isEqualTo("Livegate-pr-plan-dispatch");
    assertThat(dispatch.get(RuntimeContract.PullRequestPlans.UNIT_TASK_DEFINITION))
        .isEqualTo(ref(stack.tasks().get("pr-plan-unit")));
    assertThat(dispatch.get(RuntimeContract.Ecs.CONTAINER).asText()).isEqualTo(Tasks.CONTAINER);
    assertThat(dispatch.get(RuntimeContract.Tasks.PLAN_FORKS).asText()).isEqualTo("false");
    assertThat(
            functionVariables(stack, json, "webhook")
                .path(RuntimeContract.Webhook.ALLOW_FORK_PRS)
                .asText())
        .isEqualTo("false");
  }

  @Test
  void forkPullRequestsAndTheLockScopeFollowTheConfiguration() {
    Fixtures.Synthesized synthesized =
        Fixtures.synth(Fixtures.config().allowForkPrs(true).lockScope("units").build());
    LivegateStack forks = synthesized.stack();
    JsonNode template = Iam.JSON.valueToTree(synthesized.template().toJSON());
    JsonNode webhook = functionVariables(forks, template, "webhook");
    assertThat(webhook.path(RuntimeContract.Webhook.ALLOW_FORK_PRS).asText()).isEqualTo("true");
    assertThat(webhook.path(RuntimeContract.Engine.LOCK_SCOPE).asText()).isEqualTo("units");
    assertThat(
            functionVariables(forks, template, "trigger")
                .path(RuntimeContract.Engine.LOCK_SCOPE)
                .asText())
        .isEqualTo("units");
    assertThat(
            containerVariables(container(forks, template, "pr-plan-dispatch"))
                .get(RuntimeContract.Tasks.PLAN_FORKS)
                .asText())
        .isEqualTo("true");
  }

  @Test
  void aDriftScheduleRunsTheDriftTaskOnEventBridgeWithPlanRolesAndMailOnly() {
    Fixtures.Synthesized synthesized =
        Fixtures.synth(Fixtures.config().driftSchedule("rate(1 day)").build());
    LivegateStack drifting = synthesized.stack();
    JsonNode template = Iam.JSON.valueToTree(synthesized.template().toJSON());
    List<JsonNode> rules = new ArrayList<>();
    template
        .path("Resources")
        .forEach(
            resource -> {
              if (resource.path("Type").asText().equals("AWS::Events::Rule")
                  && resource.path("Properties").has("ScheduleExpression")
                  && resource.path("Properties").path("Targets").get(0).has("EcsParameters")) {
                rules.add(resource.path("Properties"));
              }
            });
    assertThat(rules).hasSize(1);
    assertThat(rules.get(0).path("ScheduleExpression").asText()).isEqualTo("rate(1 day)");
    JsonNode target = rules.get(0).path("Targets").get(0);
    assertThat(target.path("EcsParameters").path("LaunchType").asText()).isEqualTo("FARGATE");
    JsonNode container = container(drifting, template, "drift");
    assertThat(container.path("Command"))
        .extracting(JsonNode::asText)
        .containsExactly("drift", "--repository", "acme/infrastructure-live", "--trunk", "main");
    assertThat(containerVariables(container).keySet())
        .contains(
            RuntimeContract.Tasks.ACCOUNTS,
            RuntimeContract.Approval.MAIL_FROM,
            RuntimeContract.Engine.RUNNER,
            RuntimeContract.GitHub.TOKEN_SECRET);
    Iam iam = new Iam(drifting, template);
    assertThat(iam.actions(drifting.roles().get("drift")))
        .containsExactlyInAnyOrder(
            "secretsmanager:GetSecretValue", "sts:AssumeRole", "ses:SendEmail", "ses:SendRawEmail");
  }

  @Test
  void aModuleSourcesTokenReachesOnlyTheTasksThatInitUnits() {
    String secret =
        "arn:aws:secretsmanager:eu-west-1:123456789012:secret:livegate/module-reader-AbC123";
    Fixtures.Synthesized synthesized =
        Fixtures.synth(
            Fixtures.config()
                .moduleSourcesTokenSecretArn(secret)
                .moduleSourcesHost("https://github.example.com")
                .build());
    LivegateStack stack = synthesized.stack();
    JsonNode template = Iam.JSON.valueToTree(synthesized.template().toJSON());
    Iam iam = new Iam(stack, template);
    for (String task : List.of("terra-run-plan", "terra-run-apply", "pr-plan-unit")) {
      Map<String, JsonNode> variables = containerVariables(container(stack, template, task));
      assertThat(variables.get(RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET).asText())
          .as(task)
          .isEqualTo(secret);
      assertThat(variables.get(RuntimeContract.Tasks.MODULE_SOURCES_HOST).asText())
          .isEqualTo("https://github.example.com");
      assertThat(iam.resources(stack.roles().get(task), "secretsmanager:GetSecretValue"))
          .as(task)
          .contains(Iam.JSON.getNodeFactory().textNode(secret));
    }
    for (String task : List.of("create-deploy-stack", "pr-plan-dispatch")) {
      assertThat(containerVariables(container(stack, template, task)))
          .as(task)
          .doesNotContainKey(RuntimeContract.Tasks.MODULE_SOURCES_TOKEN_SECRET);
      assertThat(iam.resources(stack.roles().get(task), "secretsmanager:GetSecretValue"))
          .as(task)
          .doesNotContain(Iam.JSON.getNodeFactory().textNode(secret));
    }
    assertThatThrownBy(
            () ->
                Fixtures.config()
                    .moduleSourcesTokenSecretArn("livegate/module-reader")
                    .build()
                    .validate("livegate.json"))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageContaining("moduleSourcesTokenSecretArn must be a secret's complete ARN");
  }

  @Test
  void aDriftScheduleThatIsNotAnEventBridgeExpressionIsRefusedByName() {
    assertThatThrownBy(
            () -> Fixtures.config().driftSchedule("every day").build().validate("livegate.json"))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageContaining("driftSchedule must be an EventBridge schedule")
        .hasMessageContaining("every day");
  }

  @Test
  void driftReconcileGivesTheDriftTaskTheMetadbAndTheTriggerButNeverTheApplyRoles() {
    Fixtures.Synthesized synthesized =
        Fixtures.synth(Fixtures.config().driftSchedule("rate(1 day)").driftReconcile(true).build());
    LivegateStack drifting = synthesized.stack();
    JsonNode template = Iam.JSON.valueToTree(synthesized.template().toJSON());
    JsonNode container = container(drifting, template, "drift");
    assertThat(containerVariables(container).keySet())
        .contains(
            RuntimeContract.Tasks.DRIFT_RECONCILE,
            RuntimeContract.Tasks.TRIGGER_FUNCTION,
            RuntimeContract.Metadb.URL,
            RuntimeContract.Engine.RUNNER);
    Iam iam = new Iam(drifting, template);
    assertThat(iam.actions(drifting.roles().get("drift")))
        .containsExactlyInAnyOrder(
            "secretsmanager:GetSecretValue",
            "sts:AssumeRole",
            "ses:SendEmail",
            "ses:SendRawEmail",
            "lambda:InvokeFunction");
  }

  @Test
  void driftReconcileWithoutADriftScheduleIsRefusedByName() {
    assertThatThrownBy(
            () -> Fixtures.config().driftReconcile(true).build().validate("livegate.json"))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageContaining("driftReconcile")
        .hasMessageContaining("driftSchedule");
  }
}
