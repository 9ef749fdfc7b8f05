package io.livegate.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.scan.config.AccountsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed configuration: its defaults, the file format, and clear errors on bad values. */
class LivegateConfigTest {
  private static void rejected(LivegateConfig.Builder config, String... message) {
    var thrown =
        assertThatThrownBy(() -> config.build().validate("livegate.json"))
            .isInstanceOf(InvalidLivegateConfig.class)
            .hasMessageStartingWith("livegate.json: ");
    for (String part : message) {
      thrown.hasMessageContaining(part);
    }
  }

  @Test
  void anAccountWithoutVotersIsRejectedByName() {
    rejected(
        Fixtures.config()
            .accounts(List.of(Fixtures.shared().build(), Fixtures.dev().voters(List.of()).build())),
        "accounts[1] (account \"dev\")",
        "voters is missing or empty");
  }

  @Test
  void aRoleThatIsNotAnIamRoleArnIsRejected() {
    rejected(
        Fixtures.config()
            .accounts(
                List.of(Fixtures.shared().planRoleArn("arn:aws:iam::1111:role/plan").build())),
        "account \"shared_services\"",
        "planRoleArn 'arn:aws:iam::1111:role/plan' is not an IAM role ARN");
    rejected(
        Fixtures.config()
            .accounts(List.of(Fixtures.shared().applyRoleArn("livegate-apply").build())),
        "applyRoleArn 'livegate-apply'");
    rejected(
        Fixtures.config().accounts(List.of(Fixtures.shared().applyRoleArn(null).build())),
        "applyRoleArn is required");
  }

  @Test
  void aDependencyOnAnUnknownAccountIsRejected() {
    rejected(
        Fixtures.config().accounts(List.of(Fixtures.dev().build())),
        "account \"dev\" depends on \"shared_services\", which is not an account");
  }

  @Test
  void alarmsDefaultToNoAddressAnHourForAScanAndTheApprovalTimeoutPlusSixHoursForTheLock() {
    LivegateConfig defaults = Fixtures.config().build().validate("test");
    assertThat(defaults.alarmEmails()).isEmpty();
    assertThat(defaults.scanTimeout()).isEqualTo(java.time.Duration.ofHours(1));
    assertThat(defaults.lockAlarmAfter()).isEqualTo(java.time.Duration.ofHours(78));
    assertThat(
            Fixtures.config()
                .approvalTimeout(java.time.Duration.ofHours(4))
                .flowTimeout(java.time.Duration.ofHours(10))
                .build()
                .lockAlarmAfter())
        .isEqualTo(java.time.Duration.ofHours(10));
  }

  @Test
  void badAlarmSettingsAreRejectedByName() {
    rejected(
        Fixtures.config().alarmEmails(List.of("oncall@example.com", "oncall")),
        "alarmEmails[1] must be an e-mail address, not 'oncall'");
    rejected(
        Fixtures.config().scanTimeout(java.time.Duration.ofMinutes(5)),
        "scanTimeout must be at least PT10M, not PT5M");
    rejected(
        Fixtures.config().lockAlarmAfter(java.time.Duration.ofMinutes(30)),
        "lockAlarmAfter must be longer than scanTimeout (PT1H), not PT30M");
  }

  @Test
  void aNegativeOrHugeUrlConcurrencyIsRejected() {
    assertThat(Fixtures.config().build().functionUrlConcurrency()).isEqualTo(10);
    rejected(
        Fixtures.config().functionUrlConcurrency(-1),
        "functionUrlConcurrency must be between 0 (none reserved) and 1000, not -1");
  }

  @Test
  void aRoleSessionShorterThanStsGrantsOrLongerThanAnyRoleAllowsIsRejected() {
    assertThat(Fixtures.config().build().roleSessionDuration())
        .isEqualTo(java.time.Duration.ofHours(1));
    rejected(
        Fixtures.config().roleSessionDuration(java.time.Duration.ofMinutes(10)),
        "roleSessionDuration must be between PT15M and PT12H");
    rejected(
        Fixtures.config().roleSessionDuration(java.time.Duration.ofHours(13)),
        "roleSessionDuration must be between PT15M and PT12H");
  }

  @Test
  void anAccountDependencyCycleIsRejected() {
    rejected(
        Fixtures.config()
            .accounts(
                List.of(
                    Fixtures.shared().dependsOn(List.of("dev")).build(), Fixtures.dev().build())),
        "account dependency cycle");
  }

  @Test
  void aPlanRoleThatCanAlsoApplyIsRejected() {
    rejected(
        Fixtures.config()
            .accounts(List.of(Fixtures.shared().applyRoleArn(Fixtures.SHARED_PLAN).build())),
        "planRoleArn and applyRoleArn are the same role");
    rejected(
        Fixtures.config()
            .accounts(
                List.of(
                    Fixtures.shared().build(),
                    Fixtures.dev().applyRoleArn(Fixtures.SHARED_PLAN).build())),
        "is another account's plan role");
  }

  @Test
  void thresholdsAboveTheNumberOfVotersAreRejected() {
    rejected(
        Fixtures.config().accounts(List.of(Fixtures.shared().minApprovals(3).build())),
        "minApprovals must be between 1 and the 2 voters, not 3");
  }

  @Test
  void otherBadValuesNameTheirField() {
    rejected(Fixtures.config().repository("infrastructure-live"), "repository must be owner/name");
    rejected(Fixtures.config().mailFrom("livegate"), "mailFrom must be the e-mail address");
    rejected(
        Fixtures.config()
            .taskImage("123456789012.dkr.ecr.eu-west-1.amazonaws.com/livegate-tasks:1.4.0"),
        "taskImage must be an image pinned by its digest");
    rejected(
        Fixtures.config().mailDomain("example.org"),
        "mailDomain must be the domain of mailFrom (example.com) or a parent of it, not"
            + " 'example.org'");
    rejected(
        Fixtures.config().mailFrom("livegate@notexample.com").mailDomain("example.com"),
        "mailDomain must be the domain of mailFrom (notexample.com)");
    rejected(Fixtures.config().accounts(List.of()), "accounts is missing or empty");
    rejected(Fixtures.config().scan("full"), "scan must be one of graph, plan, not 'full'");
    rejected(Fixtures.config().lockScope("org"), "lockScope must be one of repo, units");
    rejected(Fixtures.config().lockParameter("merge-lock"), "lockParameter must be an SSM path");
    rejected(
        Fixtures.config().flowTimeout(Duration.ofDays(3)),
        "flowTimeout (PT72H) must be at least approvalTimeout plus");
    rejected(Fixtures.config().vpcId("my-vpc"), "vpcId must be a VPC id");
    rejected(Fixtures.config().natGateways(0), "natGateways must be between 1 and maxAzs");
    rejected(Fixtures.config().dbMinCapacity(0), "dbMinCapacity must be at least 0.5");
    rejected(
        Fixtures.config().logRetentionDays(10), "logRetentionDays must be one CloudWatch accepts");
    rejected(Fixtures.config().taskCpu(1024).taskMemoryMiB(1024), "is not a Fargate size");
    rejected(
        Fixtures.config().tools(new RunnerTools("latest", null, "1.1.3", null)),
        "terraformVersion must be a release version such as 1.1.3, not 'latest'");
    rejected(
        Fixtures.config()
            .tools(new RunnerTools("1.11.4", RunnerTools.TERRAFORM_1_11_4_SHA256, "1.1.3", "ABC")),
        "terragruntSha256 must be 64 lowercase hex digits (a SHA-256) or \"unpinned\", not 'ABC'");
  }

  @Test
  void aToolVersionWithoutAChecksumIsRefusedUnlessTheChecksumIsWaivedInSoManyWords() {
    rejected(
        Fixtures.config().tools(RunnerTools.of("1.11.4", null, "1.1.2", null)),
        "terragruntVersion 1.1.2 has no terragruntSha256: set it to the SHA-256 of"
            + " terragrunt_linux_amd64 from the release's SHA256SUMS, or to \"unpinned\" to trust"
            + " the SHA256SUMS downloaded with the release");
    rejected(
        Fixtures.config().tools(RunnerTools.of("1.12.0", null, "1.1.3", null)),
        "terraformVersion 1.12.0 has no terraformSha256: set it to the SHA-256 of"
            + " terraform_1.12.0_linux_amd64.zip");
    assertThat(
            Fixtures.config()
                .tools(RunnerTools.of("1.12.0", RunnerTools.UNPINNED, "1.1.3", null))
                .build()
                .validate("test")
                .tools()
                .buildArgs())
        .containsEntry("TERRAFORM_VERSION", "1.12.0")
        .containsEntry("TERRAFORM_SHA256", "")
        .containsEntry("TERRAGRUNT_SHA256", RunnerTools.TERRAGRUNT_1_1_3_SHA256);
  }

  @Test
  void theTerraformRunnerIsRefusedOnAwsBecauseItAssumesNoRoleAndNeverInitsBeforeApply() {
    rejected(
        Fixtures.config().runner("terraform"),
        "runner terraform cannot run on AWS: it assumes no account role",
        "its apply task never runs init; use terragrunt");
  }

  @Test
  void theToolVersionsAndPinnedChecksumsBecomeTheImagesBuildArguments(@TempDir Path dir)
      throws Exception {
    assertThat(Fixtures.config().build().validate("test").tools().buildArgs())
        .containsExactly(
            java.util.Map.entry("TERRAFORM_VERSION", "1.11.4"),
            java.util.Map.entry(
                "TERRAFORM_SHA256",
                "1ce994251c00281d6845f0f268637ba50c0005657eb3cf096b92f753b42ef4dc"),
            java.util.Map.entry("TERRAGRUNT_VERSION", "1.1.3"),
            java.util.Map.entry(
                "TERRAGRUNT_SHA256",
                "d5da6a66741f4ee752aa3b502b57e47fd6d5c178942861b2507f14f083e7606e"));
    Path example = SourceTree.locate(Path.of("")).root().resolve("infra-cdk/livegate.example.json");
    ObjectNode pinned = (ObjectNode) Iam.JSON.readTree(Files.readString(example));
    String sha = "ab".repeat(32);
    pinned.put("terragruntVersion", "1.1.2").put("terragruntSha256", sha);
    Path file = dir.resolve("livegate.json");
    Files.writeString(file, pinned.toString());

    assertThat(LivegateConfig.fromFile(file).tools())
        .as("the default terraform keeps its pinned checksum")
        .isEqualTo(new RunnerTools("1.11.4", RunnerTools.TERRAFORM_1_11_4_SHA256, "1.1.2", sha));
  }

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    LivegateConfig config = Fixtures.config().build().validate("test");
    assertThat(config.repositoryUrl()).isEqualTo("https://github.com/acme/infrastructure-live.git");
    assertThat(config.trunk()).isEqualTo("main");
    assertThat(config.lockParameterFor("Livegate")).isEqualTo("/Livegate/merge-lock");
    assertThat(config.lockScope()).isEqualTo("repo");
    assertThat(config.allowForkPrs()).isFalse();
    assertThat(config.scan()).isEqualTo("graph");
    assertThat(config.runner()).isEqualTo("terragrunt");
    assertThat(config.failurePolicy()).isEqualTo("abort_dependents");
    assertThat(config.approvalTimeout()).isEqualTo(Duration.ofDays(3));
    assertThat(config.flowTimeout()).isEqualTo(Duration.ofDays(8));
    assertThat(config.vpcId()).isNull();
    assertThat(config.dbDeletionProtection()).isTrue();
    assertThat(config.logRetentionDays()).isEqualTo(30);
    assertThat(config.planRetentionDays()).isEqualTo(30);
    assertThat(config.tools()).isEqualTo(RunnerTools.DEFAULT);
  }

  @Test
  void anAccountThatKeepsDeletedUnitsReportOnlySaysSoInTheAccountsText() {
    LivegateConfig config =
        Fixtures.config()
            .accounts(
                List.of(Fixtures.shared().build(), Fixtures.dev().destroyDeleted(false).build()))
            .build()
            .validate("test");

    Accounts read = AccountsFile.parse("LIVEGATE_ACCOUNTS", config.accountsText());

    assertThat(read.get("shared_services").destroyDeleted()).isTrue();
    assertThat(read.get("dev").destroyDeleted()).isFalse();
  }

  @Test
  void theAccountsTextIsTheAccountsFileTheTasksRead() {
    LivegateConfig config = Fixtures.config().build().validate("test");

    Accounts read = AccountsFile.parse("LIVEGATE_ACCOUNTS", config.accountsText());

    assertThat(read.all())
        .containsExactly(
            Account.of("shared_services", "shared-services-account", List.of())
                .withVotes(List.of("platform-lead@example.com", "sre@example.com"), 2, 1)
                .withRoles(Fixtures.SHARED_PLAN, Fixtures.SHARED_APPLY),
            Account.of("dev", "dev-account", List.of("shared_services"))
                .withVotes(List.of("dev-lead@example.com"), 1, 1)
                .withRoles(Fixtures.DEV_PLAN, Fixtures.DEV_APPLY));
    assertThat(config.planRoleArns()).containsExactly(Fixtures.SHARED_PLAN, Fixtures.DEV_PLAN);
    assertThat(config.applyRoleArns()).containsExactly(Fixtures.SHARED_APPLY, Fixtures.DEV_APPLY);
  }

  @Test
  void hclStringsEscapeQuotesBackslashesAndTemplates() {
    assertThat(AccountsHcl.string("a\"b\\c ${x} %{y} $z"))
        .isEqualTo("\"a\\\"b\\\\c $${x} %%{y} $z\"");
  }

  @Test
  void theConfigFileIsReadWithEveryFieldAndRejectsTypos(@TempDir Path dir) throws Exception {
    Path example = SourceTree.locate(Path.of("")).root().resolve("infra-cdk/livegate.example.json");
    LivegateConfig config = LivegateConfig.fromFile(example);
    assertThat(config.repository()).isEqualTo("acme/infrastructure-live");
    assertThat(config.accounts())
        .extracting(AccountConfig::name)
        .containsExactly("shared_services", "dev");
    assertThat(config.accounts().get(1).dependsOn()).containsExactly("shared_services");

    ObjectNode typo = (ObjectNode) Iam.JSON.readTree(Files.readString(example));
    typo.put("mailform", "x@example.com");
    Path file = dir.resolve("livegate.json");
    Files.writeString(file, typo.toString());
    assertThatThrownBy(() -> LivegateConfig.fromFile(file))
        .isInstanceOf(InvalidLivegateConfig.class)
        .hasMessageContaining(file + ": unknown field 'mailform'");

    ObjectNode accountTypo = (ObjectNode) Iam.JSON.readTree(Files.readString(example));
    ((ObjectNode) accountTypo.path("accounts").get(0)).put("voter", "x@example.com");
    Files.writeString(file, accountTypo.toString());
    assertThatThrownBy(() -> LivegateConfig.fromFile(file))
        .hasMessageContaining("accounts[0].unknown field 'voter'");

    ObjectNode wrongType = (ObjectNode) Iam.JSON.readTree(Files.readString(example));
    wrongType.put("allowForkPrs", "yes");
    Files.writeString(file, wrongType.toString());
    assertThatThrownBy(() -> LivegateConfig.fromFile(file))
        .hasMessageContaining("allowForkPrs must be true or false, not \"yes\"");
  }
}
