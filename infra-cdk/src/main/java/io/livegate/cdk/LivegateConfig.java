package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Everything an installation chooses, typed and checked before anything is synthesized. The module
 * README documents each field and its default; {@link #fromJson} reads the same fields from the
 * config file or the CDK context ({@link LivegateConfigJson}), and {@link #validate} checks them
 * ({@link LivegateConfigValidator}).
 *
 * @param repository the live repository on GitHub, {@code owner/name}
 * @param repositoryUrl its clone URL (default {@code https://github.com/<repository>.git})
 * @param trunk the branch that deploys (default {@code main})
 * @param mailFrom the SES identity that sends vote mail
 * @param accounts the accounts, at least one
 * @param lockParameter the SSM parameter of the merge lock (default {@code /<stack>/merge-lock})
 * @param lockScope {@code repo} (default) or {@code units}
 * @param allowForkPrs whether pull requests from forks get plans (default false)
 * @param scan {@code graph} (default) or {@code plan}: how create-deploy-stack finds changes
 * @param runner {@code terragrunt}, the only runner that works on AWS ({@code terraform} assumes no
 *     account role and never inits before apply, so the validator refuses it)
 * @param failurePolicy {@code abort_dependents} (default) or {@code abort_all}
 * @param approvalTimeout how long a vote may take (default P3D)
 * @param flowTimeout how long one unit's flow may take in all (default P8D)
 * @param skipEmpty whether plans without changes skip the vote (default false)
 * @param vpcId an existing VPC to use; {@code null} creates one
 * @param maxAzs availability zones of a created VPC (default 2)
 * @param natGateways NAT gateways of a created VPC (default 1)
 * @param dbMinCapacity the metadb's minimum Aurora capacity units (default 0.5)
 * @param dbMaxCapacity its maximum (default 2)
 * @param dbDeletionProtection whether the metadb refuses deletion (default true)
 * @param logRetentionDays retention of every log group (default 30)
 * @param planRetentionDays days plan files stay in the artifact bucket (default 30)
 * @param taskCpu the ECS tasks' CPU units (default 1024)
 * @param taskMemoryMiB the ECS tasks' memory (default 4096)
 * @param driftSchedule an EventBridge schedule expression ({@code rate(1 day)}, {@code cron(...)})
 *     that runs the drift task; {@code null} (default) runs none
 * @param driftReconcile whether the drift task also queues a drift reconcile of the drifted units
 *     (docs/drift.md) behind the merge queue (default false); needs {@code driftSchedule}
 * @param tools the terraform and terragrunt versions the image installs, and their checksums
 * @param moduleSourcesTokenSecretArn the complete ARN of a Secrets Manager secret holding a token
 *     that only reads the repositories of private module sources, which git in terraform and
 *     terragrunt signs in with (docs/security.md); {@code null} (default): none
 * @param moduleSourcesHost the host that token is for (default {@code https://github.com})
 * @param alarmEmails the operators' addresses, subscribed to the alarms' topic (default none: the
 *     topic then has no subscriber until one is added by hand)
 * @param scanTimeout how long a create-deploy-stack task may run before the trigger's watchdog
 *     stops it (default PT1H)
 * @param roleSessionDuration how long each session of an account role lasts in terra-run (default
 *     PT1H; at most the role's maximum session duration), renewed before it ends
 * @param functionUrlConcurrency the reserved concurrency of each Lambda behind a public Function
 *     URL (webhook, approval-response), which caps what a flood of requests can run and cost, and
 *     keeps them runnable when other functions use the account's concurrency (default 10; 0: none)
 * @param lockAlarmAfter how long the merge lock may be held before its alarm pages (default the
 *     approval timeout plus 6 hours: one unit's longest vote, plan and apply)
 * @param mailDomain the domain of {@code mailFrom} (or a parent of it) to verify as an SES domain
 *     identity with DKIM and a custom MAIL FROM domain ({@code mail.<mailDomain>}), so that vote
 *     mail passes the DMARC policy of a real sender domain; {@code null} (default): only the
 *     address {@code mailFrom} is verified
 * @param vpcEndpoints whether a created VPC gets endpoints for S3 (gateway) and SSM, STS, Step
 *     Functions, Secrets Manager, CloudWatch Logs and ECR (interface), so that AWS calls and image
 *     pulls do not cross the NAT gateway (default false: each interface endpoint costs about $7 a
 *     month per zone)
 * @param taskImage the ECS tasks' image as {@code REGISTRY/REPOSITORY@sha256:<digest>}, built from
 *     {@code ecs-tasks/Dockerfile} and pushed by the operator, so every task definition runs
 *     exactly that image; {@code null} (default): the stack builds the image as an asset
 */
public record LivegateConfig(
    String repository,
    String repositoryUrl,
    String trunk,
    String mailFrom,
    List<AccountConfig> accounts,
    String lockParameter,
    String lockScope,
    boolean allowForkPrs,
    String scan,
    String runner,
    String failurePolicy,
    Duration approvalTimeout,
    Duration flowTimeout,
    boolean skipEmpty,
    String vpcId,
    int maxAzs,
    int natGateways,
    double dbMinCapacity,
    double dbMaxCapacity,
    boolean dbDeletionProtection,
    int logRetentionDays,
    int planRetentionDays,
    int taskCpu,
    int taskMemoryMiB,
    String driftSchedule,
    boolean driftReconcile,
    RunnerTools tools,
    String moduleSourcesTokenSecretArn,
    String moduleSourcesHost,
    List<String> alarmEmails,
    Duration scanTimeout,
    Duration lockAlarmAfter,
    Duration roleSessionDuration,
    int functionUrlConcurrency,
    String mailDomain,
    boolean vpcEndpoints,
    String taskImage) {

  public LivegateConfig {
    accounts = accounts == null ? List.of() : List.copyOf(accounts);
    alarmEmails = alarmEmails == null ? List.of() : List.copyOf(alarmEmails);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The accounts file's text, as the tasks read it. */
  public String accountsText() {
    return AccountsHcl.render(accounts);
  }

  /** Every account's plan role, in account order, without repeats. */
  public List<String> planRoleArns() {
    return accounts.stream().map(AccountConfig::planRoleArn).distinct().toList();
  }

  /** Every account's apply role, in account order, without repeats. */
  public List<String> applyRoleArns() {
    return accounts.stream().map(AccountConfig::applyRoleArn).distinct().toList();
  }

  /**
   * Checks every field and the accounts as a whole ({@link LivegateConfigValidator}).
   *
   * @param source where the configuration came from, for messages
   * @return this configuration
   * @throws InvalidLivegateConfig naming the source and the field
   */
  public LivegateConfig validate(String source) {
    LivegateConfigValidator.validate(this, source);
    return this;
  }

  /** The merge lock's parameter: {@link #lockParameter} or the stack's default. */
  public String lockParameterFor(String stackName) {
    return lockParameter != null ? lockParameter : "/" + stackName + "/merge-lock";
  }

  /** Reads a JSON config file (format in the module README). */
  public static LivegateConfig fromFile(Path file) {
    return LivegateConfigJson.read(file);
  }

  /**
   * Reads the configuration from JSON: the config file, or an object in the CDK context. Unknown
   * fields are errors, so a typo is never a silent default.
   */
  public static LivegateConfig fromJson(JsonNode node, String source) {
    return LivegateConfigJson.read(node, source);
  }

  /** Builds a configuration; every field but repository, mailFrom and accounts has a default. */
  public static final class Builder {
    private String repository;
    private String repositoryUrl;
    private String trunk = "main";
    private String mailFrom;
    private List<AccountConfig> accounts = List.of();
    private String lockParameter;
    private String lockScope = "repo";
    private boolean allowForkPrs;
    private String scan = "graph";
    private String runner = "terragrunt";
    private String failurePolicy = "abort_dependents";
    private Duration approvalTimeout = Duration.ofDays(3);
    private Duration flowTimeout = Duration.ofDays(8);
    private boolean skipEmpty;
    private String vpcId;
    private int maxAzs = 2;
    private int natGateways = 1;
    private double dbMinCapacity = 0.5;
    private double dbMaxCapacity = 2;
    private boolean dbDeletionProtection = true;
    private int logRetentionDays = 30;
    private String driftSchedule;
    private boolean driftReconcile;
    private int planRetentionDays = 30;
    private int taskCpu = 1024;
    private int taskMemoryMiB = 4096;
    private RunnerTools tools = RunnerTools.DEFAULT;
    private String moduleSourcesTokenSecretArn;
    private String moduleSourcesHost = "https://github.com";
    private List<String> alarmEmails = List.of();
    private Duration scanTimeout = Duration.ofHours(1);
    private String mailDomain;
    private boolean vpcEndpoints;
    private String taskImage;
    private Duration lockAlarmAfter;
    private Duration roleSessionDuration = Duration.ofHours(1);
    private int functionUrlConcurrency = 10;

    private Builder() {}

    public Builder repository(String repository) {
      this.repository = repository;
      return this;
    }

    public Builder repositoryUrl(String repositoryUrl) {
      this.repositoryUrl = repositoryUrl;
      return this;
    }

    public Builder trunk(String trunk) {
      this.trunk = trunk;
      return this;
    }

    public Builder mailFrom(String mailFrom) {
      this.mailFrom = mailFrom;
      return this;
    }

    public Builder accounts(List<AccountConfig> accounts) {
      this.accounts = accounts;
      return this;
    }

    public Builder lockParameter(String lockParameter) {
      this.lockParameter = lockParameter;
      return this;
    }

    public Builder lockScope(String lockScope) {
      this.lockScope = lockScope;
      return this;
    }

    public Builder allowForkPrs(boolean allowForkPrs) {
      this.allowForkPrs = allowForkPrs;
      return this;
    }

    public Builder scan(String scan) {
      this.scan = scan;
      return this;
    }

    public Builder runner(String runner) {
      this.runner = runner;
      return this;
    }

    public Builder failurePolicy(String failurePolicy) {
      this.failurePolicy = failurePolicy;
      return this;
    }

    public Builder approvalTimeout(Duration approvalTimeout) {
      this.approvalTimeout = approvalTimeout;
      return this;
    }

    public Builder flowTimeout(Duration flowTimeout) {
      this.flowTimeout = flowTimeout;
      return this;
    }

    public Builder skipEmpty(boolean skipEmpty) {
      this.skipEmpty = skipEmpty;
      return this;
    }

    public Builder vpcId(String vpcId) {
      this.vpcId = vpcId;
      return this;
    }

    public Builder maxAzs(int maxAzs) {
      this.maxAzs = maxAzs;
      return this;
    }

    public Builder natGateways(int natGateways) {
      this.natGateways = natGateways;
      return this;
    }

    public Builder dbMinCapacity(double dbMinCapacity) {
      this.dbMinCapacity = dbMinCapacity;
      return this;
    }

    public Builder dbMaxCapacity(double dbMaxCapacity) {
      this.dbMaxCapacity = dbMaxCapacity;
      return this;
    }

    public Builder dbDeletionProtection(boolean dbDeletionProtection) {
      this.dbDeletionProtection = dbDeletionProtection;
      return this;
    }

    public Builder logRetentionDays(int logRetentionDays) {
      this.logRetentionDays = logRetentionDays;
      return this;
    }

    public Builder planRetentionDays(int planRetentionDays) {
      this.planRetentionDays = planRetentionDays;
      return this;
    }

    public Builder taskCpu(int taskCpu) {
      this.taskCpu = taskCpu;
      return this;
    }

    public Builder taskMemoryMiB(int taskMemoryMiB) {
      this.taskMemoryMiB = taskMemoryMiB;
      return this;
    }

    public Builder driftSchedule(String driftSchedule) {
      this.driftSchedule = driftSchedule;
      return this;
    }

    public Builder driftReconcile(boolean driftReconcile) {
      this.driftReconcile = driftReconcile;
      return this;
    }

    public Builder tools(RunnerTools tools) {
      this.tools = tools;
      return this;
    }

    public Builder moduleSourcesTokenSecretArn(String moduleSourcesTokenSecretArn) {
      this.moduleSourcesTokenSecretArn = moduleSourcesTokenSecretArn;
      return this;
    }

    public Builder moduleSourcesHost(String moduleSourcesHost) {
      this.moduleSourcesHost = moduleSourcesHost;
      return this;
    }

    public Builder alarmEmails(List<String> alarmEmails) {
      this.alarmEmails = alarmEmails;
      return this;
    }

    public Builder scanTimeout(Duration scanTimeout) {
      this.scanTimeout = scanTimeout;
      return this;
    }

    public Builder lockAlarmAfter(Duration lockAlarmAfter) {
      this.lockAlarmAfter = lockAlarmAfter;
      return this;
    }

    public Builder roleSessionDuration(Duration roleSessionDuration) {
      this.roleSessionDuration = roleSessionDuration;
      return this;
    }

    public Builder functionUrlConcurrency(int functionUrlConcurrency) {
      this.functionUrlConcurrency = functionUrlConcurrency;
      return this;
    }

    public Builder mailDomain(String mailDomain) {
      this.mailDomain = mailDomain;
      return this;
    }

    public Builder vpcEndpoints(boolean vpcEndpoints) {
      this.vpcEndpoints = vpcEndpoints;
      return this;
    }

    public Builder taskImage(String taskImage) {
      this.taskImage = taskImage;
      return this;
    }

    /** The configuration, unchecked: call {@link LivegateConfig#validate}. */
    public LivegateConfig build() {
      return new LivegateConfig(
          repository,
          repositoryUrl != null
              ? repositoryUrl
              : "https://github.com/" + (repository == null ? "" : repository) + ".git",
          trunk,
          mailFrom,
          accounts,
          lockParameter,
          lockScope,
          allowForkPrs,
          scan,
          runner,
          failurePolicy,
          approvalTimeout,
          flowTimeout,
          skipEmpty,
          vpcId,
          maxAzs,
          natGateways,
          dbMinCapacity,
          dbMaxCapacity,
          dbDeletionProtection,
          logRetentionDays,
          planRetentionDays,
          taskCpu,
          taskMemoryMiB,
          driftSchedule,
          driftReconcile,
          tools,
          moduleSourcesTokenSecretArn,
          moduleSourcesHost,
          alarmEmails,
          scanTimeout,
          lockAlarmAfter != null
              ? lockAlarmAfter
              : (approvalTimeout == null ? null : approvalTimeout.plusHours(6)),
          roleSessionDuration,
          functionUrlConcurrency,
          mailDomain,
          vpcEndpoints,
          taskImage);
    }
  }
}
