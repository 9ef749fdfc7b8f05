package io.livegate.tests.aws;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.livegate.aws.AwsDoctor;
import io.livegate.cli.CliRun;
import io.livegate.core.account.Account;
import io.livegate.github.GitHubDoctor.Check;
import io.livegate.scan.config.AccountsFile;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.RuntimeContract.RunnerVersions;
import io.livegate.statemachine.RuntimeContract.TaskFamilies;
import io.livegate.tests.moto.MotoServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.Secret;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.ses.SesClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * {@code livegate doctor --aws}'s checks against moto: a stack as the CDK app deploys it (task
 * definitions with their task roles, labels and the accounts parameter), the accounts' roles with
 * their trust policies in IAM, and SES identities. moto's SES is in the sandbox (200 mails a day).
 */
@Tag("moto")
class AwsDoctorTest {
  @RegisterExtension static final MotoServer MOTO = new MotoServer();

  @RegisterExtension
  static final WireMockExtension GITHUB =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  static final String WEBHOOK = "https://abc123.lambda-url.us-east-1.on.aws/";

  static final String STACK = "Livegate";
  static final String MAIL_FROM = "livegate@example.com";
  static final String ACCOUNT = "123456789012";
  static final String PARAMETER = "CFN-Accounts-1A2B3C";

  private EcsClient ecs;
  private IamClient iam;
  private SesClient ses;
  private SsmClient ssm;

  @BeforeEach
  void clients() {
    MOTO.reset();
    ecs = MOTO.client(EcsClient.builder());
    iam = MOTO.client(IamClient.builder());
    ses = MOTO.client(SesClient.builder());
    ssm = MOTO.client(SsmClient.builder());
  }

  @AfterEach
  void close() {
    ecs.close();
    iam.close();
    ses.close();
    ssm.close();
  }

  private List<Check> doctor() {
    return new AwsDoctor(ecs, ses, ssm, iam, Map.of(), AwsDoctorTest::accounts)
        .check(
            new AwsDoctor.Settings(
                STACK, MAIL_FROM, RunnerVersions.TERRAFORM, RunnerVersions.TERRAGRUNT));
  }

  @Test
  void aStackWhoseRolesTrustItsTasksAndWhoseVotersAreVerifiedPassesEveryCheck() {
    DeployedStack.healthy(iam, ecs, ssm, ses).deploy();

    List<Check> checks = doctor();

    assertThat(checks).allMatch(Check::ok, "every check ok");
    assertThat(checks.stream().map(Check::line))
        .containsExactly(
            "ok    stack: Livegate's task definitions Livegate-create-deploy-stack:1,"
                + " Livegate-pr-plan-unit:1, Livegate-terra-run-plan:1, Livegate-terra-run-apply:1",
            "ok    accounts: 1 account in the SSM parameter " + PARAMETER,
            "ok    account dev plan role: arn:aws:iam::123456789012:role/dev-plan trusts"
                + " arn:aws:iam::123456789012:role/Livegate-TerraRunPlanTaskRole,"
                + " arn:aws:iam::123456789012:role/Livegate-PrPlanUnitTaskRole",
            "ok    account dev apply role: arn:aws:iam::123456789012:role/dev-apply trusts"
                + " arn:aws:iam::123456789012:role/Livegate-TerraRunApplyTaskRole",
            "ok    SES sender: livegate@example.com is a verified SES identity",
            "ok    SES sandbox: in the sandbox (200 mails a day), which mails only verified"
                + " identities; all 2 voters are verified",
            "ok    runner versions: the image installs terraform 1.11.4, terragrunt 1.1.3");
  }

  @Test
  void eachKindOfFailureIsOneLineWithItsFix() {
    DeployedStack stack = DeployedStack.healthy(iam, ecs, ssm, ses);
    stack.planRoleTrusts = List.of("Livegate-TerraRunPlanTaskRole");
    stack.applyRole = "arn:aws:iam::999999999999:role/dev-apply";
    stack.verified = List.of("alice@example.com");
    stack.labels = Map.of(RunnerVersions.TERRAFORM_LABEL, "1.11.4");
    stack.deploy();

    List<Check> checks = doctor();

    assertThat(checks.stream().filter(check -> !check.ok()).map(Check::line))
        .containsExactly(
            "FAIL  account dev plan role: arn:aws:iam::123456789012:role/dev-plan does not trust"
                + " arn:aws:iam::123456789012:role/Livegate-PrPlanUnitTaskRole; fix: let its trust"
                + " policy allow sts:AssumeRole to"
                + " arn:aws:iam::123456789012:role/Livegate-PrPlanUnitTaskRole",
            "FAIL  account dev apply role: arn:aws:iam::999999999999:role/dev-apply is in AWS"
                + " account 999999999999, whose IAM these credentials do not read; fix: pass"
                + " --account-profile 999999999999=PROFILE (a profile that may iam:GetRole there),"
                + " or check by hand: let its trust policy allow sts:AssumeRole to"
                + " arn:aws:iam::123456789012:role/Livegate-TerraRunApplyTaskRole (the stack's task"
                + " roles; docs/accounts.md)",
            "FAIL  SES sender: livegate@example.com is not a verified SES identity (nor is its"
                + " domain); fix: confirm the mail AWS sent to livegate@example.com after the"
                + " deploy, or verify it: aws ses verify-email-identity --email-address"
                + " livegate@example.com",
            "FAIL  SES sandbox: in the sandbox (200 mails a day), which mails only verified"
                + " identities, and these voters are not: bob@example.org; fix: verify each (aws"
                + " ses verify-email-identity --email-address ADDRESS, then the voter confirms"
                + " AWS's mail), or request production access in the SES console",
            "FAIL  runner versions: Livegate-create-deploy-stack, Livegate-pr-plan-unit,"
                + " Livegate-terra-run-plan, Livegate-terra-run-apply do not say which releases"
                + " their image installs; fix: deploy the stack again with this livegate's"
                + " infra-cdk, which labels them");
  }

  @Test
  void anImageWithOtherReleasesThanExpectedFailsNamingBoth() {
    DeployedStack stack = DeployedStack.healthy(iam, ecs, ssm, ses);
    stack.labels =
        Map.of(
            RunnerVersions.TERRAFORM_LABEL, "1.11.4", RunnerVersions.TERRAGRUNT_LABEL, "0.77.22");
    stack.deploy();

    assertThat(doctor().get(6).line())
        .startsWith(
            "FAIL  runner versions: the image installs terraform 1.11.4, terragrunt 0.77.22,"
                + " expected terraform 1.11.4, terragrunt 1.1.3; fix: set terraformVersion and"
                + " terragruntVersion in the CDK config");
  }

  @Test
  void aStackThatScansByPlanningAndRunsDriftNeedsThoseRolesTrustedToo() {
    DeployedStack stack = DeployedStack.healthy(iam, ecs, ssm, ses);
    stack.scan = "plan";
    stack.drift = true;
    stack.deploy();

    assertThat(doctor().get(2).line())
        .isEqualTo(
            "FAIL  account dev plan role: arn:aws:iam::123456789012:role/dev-plan does not trust"
                + " arn:aws:iam::123456789012:role/Livegate-CreateDeployStackTaskRole,"
                + " arn:aws:iam::123456789012:role/Livegate-DriftTaskRole; fix: let its trust"
                + " policy allow sts:AssumeRole to"
                + " arn:aws:iam::123456789012:role/Livegate-CreateDeployStackTaskRole,"
                + " arn:aws:iam::123456789012:role/Livegate-DriftTaskRole");
  }

  @Test
  void aStackThatIsNotDeployedSaysSoAndStillChecksTheSender() {
    ses.verifyEmailIdentity(request -> request.emailAddress(MAIL_FROM));

    assertThat(doctor().stream().map(Check::line))
        .containsExactly(
            "FAIL  stack: no task definition Livegate-create-deploy-stack, Livegate-pr-plan-unit,"
                + " Livegate-terra-run-plan, Livegate-terra-run-apply in this region; fix: deploy"
                + " the stack (infra-cdk/README.md), or name it with --stack and its region with"
                + " AWS_REGION",
            "ok    SES sender: livegate@example.com is a verified SES identity",
            "ok    SES sandbox: in the sandbox (200 mails a day), which mails only verified"
                + " identities; the voters are not checked without the stack's accounts");
  }

  @Test
  void taskDefinitionsThatCannotBeReadAreOneFailingLineNotACrash() throws Exception {
    ses.verifyEmailIdentity(request -> request.emailAddress(MAIL_FROM));
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (EcsClient unreachable =
        EcsClient.builder()
            .endpointOverride(java.net.URI.create("http://127.0.0.1:" + closedPort))
            .region(MOTO.region())
            .credentialsProvider(MOTO.credentials())
            .build()) {
      List<Check> checks =
          new AwsDoctor(unreachable, ses, ssm, iam, Map.of(), AwsDoctorTest::accounts)
              .check(
                  new AwsDoctor.Settings(
                      STACK, MAIL_FROM, RunnerVersions.TERRAFORM, RunnerVersions.TERRAGRUNT));

      assertThat(checks.get(0).line())
          .startsWith("FAIL  stack: cannot read the task definitions (")
          .endsWith(
              "; fix: run the doctor with credentials that may ecs:DescribeTaskDefinition in the"
                  + " stack's account and region");
      assertThat(checks).hasSize(3);
    }
  }

  /** The output docs/README.md shows: the GitHub checks, then the AWS checks, one failing. */
  @Test
  void livegateDoctorWithAwsPrintsTheGitHubChecksThenTheAwsChecksAndExitsOneOnAFailure() {
    GITHUB.stubFor(
        get("/repos/acme/live").willReturn(okJson("{\"permissions\": {\"push\": true}}")));
    GITHUB.stubFor(
        get("/repos/acme/live/hooks")
            .willReturn(
                okJson(
                    "[{\"id\": 3, \"active\": true, \"events\": [\"pull_request\"], \"config\":"
                        + " {\"url\": \""
                        + WEBHOOK
                        + "\", \"content_type\": \"json\", \"secret\": \"********\"}}]")));
    GITHUB.stubFor(
        get("/repos/acme/live/branches/main/protection/required_status_checks")
            .willReturn(okJson("{\"contexts\": [\"livegate/merge-lock\"]}")));
    DeployedStack stack = DeployedStack.healthy(iam, ecs, ssm, ses);
    stack.verified = List.of(MAIL_FROM, "alice@example.com");
    stack.deploy();
    Map<String, String> environment = MOTO.wiringEnvironment();
    environment.put("LIVEGATE_GITHUB_TOKEN", "ghs_token");

    CliRun doctor =
        CliRun.inEnvironment(
            environment,
            "doctor",
            "--repository",
            "acme/live",
            "--webhook-url",
            WEBHOOK,
            "--github-api",
            GITHUB.baseUrl(),
            "--aws",
            "--mail-from",
            MAIL_FROM);

    assertThat(doctor.exitCode()).as(doctor.toString()).isEqualTo(1);
    assertThat(doctor.out())
        .isEqualTo(
            "ok    token: reads acme/live\n"
                + "ok    statuses and comments: the token may write to acme/live\n"
                + "ok    webhook: hook 3 posts pull requests to "
                + WEBHOOK
                + "\n"
                + "ok    branch protection: main requires livegate/merge-lock\n"
                + "ok    stack: Livegate's task definitions Livegate-create-deploy-stack:1,"
                + " Livegate-pr-plan-unit:1, Livegate-terra-run-plan:1, Livegate-terra-run-apply:1\n"
                + "ok    accounts: 1 account in the SSM parameter "
                + PARAMETER
                + "\n"
                + "ok    account dev plan role: arn:aws:iam::123456789012:role/dev-plan trusts"
                + " arn:aws:iam::123456789012:role/Livegate-TerraRunPlanTaskRole,"
                + " arn:aws:iam::123456789012:role/Livegate-PrPlanUnitTaskRole\n"
                + "ok    account dev apply role: arn:aws:iam::123456789012:role/dev-apply trusts"
                + " arn:aws:iam::123456789012:role/Livegate-TerraRunApplyTaskRole\n"
                + "ok    SES sender: livegate@example.com is a verified SES identity\n"
                + "FAIL  SES sandbox: in the sandbox (200 mails a day), which mails only verified"
                + " identities, and these voters are not: bob@example.org; fix: verify each (aws"
                + " ses verify-email-identity --email-address ADDRESS, then the voter confirms"
                + " AWS's mail), or request production access in the SES console\n"
                + "ok    runner versions: the image installs terraform 1.11.4, terragrunt 1.1.3\n");
  }

  /**
   * What {@code cdk deploy} leaves in the account, as far as the doctor reads it, with knobs for
   * what a test breaks.
   */
  static final class DeployedStack {
    private final IamClient iam;
    private final EcsClient ecs;
    private final SsmClient ssm;
    private final SesClient ses;

    /** The task roles (names) the plan role trusts. */
    List<String> planRoleTrusts =
        List.of("Livegate-TerraRunPlanTaskRole", "Livegate-PrPlanUnitTaskRole");

    String applyRole = "arn:aws:iam::" + ACCOUNT + ":role/dev-apply";
    List<String> verified = List.of(MAIL_FROM, "alice@example.com", "example.org");
    Map<String, String> labels =
        Map.of(
            RunnerVersions.TERRAFORM_LABEL,
            RunnerVersions.TERRAFORM,
            RunnerVersions.TERRAGRUNT_LABEL,
            RunnerVersions.TERRAGRUNT);
    String scan = "graph";
    boolean drift;

    private DeployedStack(IamClient iam, EcsClient ecs, SsmClient ssm, SesClient ses) {
      this.iam = iam;
      this.ecs = ecs;
      this.ssm = ssm;
      this.ses = ses;
    }

    static DeployedStack healthy(IamClient iam, EcsClient ecs, SsmClient ssm, SesClient ses) {
      return new DeployedStack(iam, ecs, ssm, ses);
    }

    void deploy() {
      String accounts =
          "account \"dev\" {\n"
              + "  path       = \"dev\"\n"
              + "  voters     = [\"alice@example.com\", \"bob@example.org\"]\n"
              + "  plan_role  = \"arn:aws:iam::"
              + ACCOUNT
              + ":role/dev-plan\"\n"
              + "  apply_role = \""
              + applyRole
              + "\"\n"
              + "}\n";
      ssm.putParameter(
          request -> request.name(PARAMETER).type(ParameterType.STRING).value(accounts));
      String parameterArn = "arn:aws:ssm:us-east-1:" + ACCOUNT + ":parameter/" + PARAMETER;
      Map<String, String> taskRoles = new LinkedHashMap<>();
      taskRoles.put(TaskFamilies.CREATE_DEPLOY_STACK, "Livegate-CreateDeployStackTaskRole");
      taskRoles.put(TaskFamilies.PR_PLAN_UNIT, "Livegate-PrPlanUnitTaskRole");
      taskRoles.put(TaskFamilies.TERRA_RUN_PLAN, "Livegate-TerraRunPlanTaskRole");
      taskRoles.put(TaskFamilies.TERRA_RUN_APPLY, "Livegate-TerraRunApplyTaskRole");
      if (drift) {
        taskRoles.put(TaskFamilies.DRIFT, "Livegate-DriftTaskRole");
      }
      taskRoles.forEach(
          (task, role) -> {
            String roleArn = role(role, trustPolicy("Service", "ecs-tasks.amazonaws.com"));
            ContainerDefinition.Builder container =
                ContainerDefinition.builder()
                    .name("livegate-task")
                    .image("livegate-tasks")
                    .dockerLabels(labels)
                    .environment(
                        KeyValuePair.builder().name(RuntimeContract.Tasks.SCAN).value(scan).build())
                    .secrets(
                        Secret.builder()
                            .name(RuntimeContract.Tasks.ACCOUNTS)
                            .valueFrom(parameterArn)
                            .build());
            ecs.registerTaskDefinition(
                request ->
                    request
                        .family(TaskFamilies.family(STACK, task))
                        .requiresCompatibilities(Compatibility.FARGATE)
                        .networkMode(NetworkMode.AWSVPC)
                        .cpu("1024")
                        .memory("4096")
                        .taskRoleArn(roleArn)
                        .containerDefinitions(container.build()));
          });
      role(
          "dev-plan",
          trustPolicy(
              "AWS",
              planRoleTrusts.stream()
                  .map(name -> "arn:aws:iam::" + ACCOUNT + ":role/" + name)
                  .toList()
                  .toArray(String[]::new)));
      if (applyRole.contains(ACCOUNT)) {
        role(
            "dev-apply",
            trustPolicy("AWS", "arn:aws:iam::" + ACCOUNT + ":role/Livegate-TerraRunApplyTaskRole"));
      }
      for (String identity : verified) {
        if (identity.contains("@")) {
          ses.verifyEmailIdentity(request -> request.emailAddress(identity));
        } else {
          ses.verifyDomainIdentity(request -> request.domain(identity));
        }
      }
    }

    private String role(String name, String trustPolicy) {
      return iam.createRole(request -> request.roleName(name).assumeRolePolicyDocument(trustPolicy))
          .role()
          .arn();
    }

    private static String trustPolicy(String kind, String... principals) {
      return "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", \"Action\":"
          + " \"sts:AssumeRole\", \"Principal\": {\""
          + kind
          + "\": ["
          + String.join(", ", List.of(principals).stream().map(one -> "\"" + one + "\"").toList())
          + "]}}]}";
    }
  }

  private static List<Account> accounts(String name, String text) {
    return AccountsFile.parse(name, text).all();
  }
}
