package io.livegate.cdk;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks a {@link LivegateConfig}, field by field and the accounts as a whole, before anything is
 * synthesized: each check is one concern, and each message names the source and the field.
 */
final class LivegateConfigValidator {
  private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");
  private static final Pattern PARAMETER = Pattern.compile("(/[A-Za-z0-9_.-]+)+");
  private static final Set<Integer> FARGATE_CPU = Set.of(256, 512, 1024, 2048, 4096);

  private final LivegateConfig config;

  /** Where the configuration came from, as each message begins. */
  private final String at;

  LivegateConfigValidator(LivegateConfig config, String at) {
    this.config = config;
    this.at = at;
  }

  void validate() {
    gitHub();
    mail();
    accounts();
    queue();
    timeouts();
    network();
    database();
    retention();
    taskSize();
  }

  /** The repository on GitHub, its clone URL and its trunk. */
  private void gitHub() {
    if (config.repository() == null || !REPOSITORY.matcher(config.repository()).matches()) {
      throw new InvalidLivegateConfig(
          at + "repository must be owner/name on GitHub, not " + quoted(config.repository()));
    }
    if (!config.repositoryUrl().startsWith("https://") || config.repositoryUrl().contains(" ")) {
      throw new InvalidLivegateConfig(
          at
              + "repositoryUrl must be an https:// clone URL, not "
              + quoted(config.repositoryUrl()));
    }
    if (config.trunk().isBlank() || config.trunk().contains(" ")) {
      throw new InvalidLivegateConfig(
          at + "trunk must be a branch name, not " + quoted(config.trunk()));
    }
  }

  /** The address vote mails are sent from. */
  private void mail() {
    if (config.mailFrom() == null || !AccountConfig.EMAIL.matcher(config.mailFrom()).matches()) {
      throw new InvalidLivegateConfig(
          at
              + "mailFrom must be the e-mail address votes are sent from, not "
              + quoted(config.mailFrom()));
    }
  }

  /** Each account, and that no apply role is another account's plan role. */
  private void accounts() {
    if (config.accounts().isEmpty()) {
      throw new InvalidLivegateConfig(at + "accounts is missing or empty; configure at least one");
    }
    for (int i = 0; i < config.accounts().size(); i++) {
      config.accounts().get(i).validate(at + "accounts[" + i + "]");
    }
    Set<String> planRoles = new TreeSet<>(config.planRoleArns());
    for (AccountConfig account : config.accounts()) {
      if (planRoles.contains(account.applyRoleArn())) {
        throw new InvalidLivegateConfig(
            at
                + "account \""
                + account.name()
                + "\": applyRoleArn "
                + account.applyRoleArn()
                + " is another account's plan role; plan roles must not be able to apply");
      }
    }
    try {
      config.accountsText();
    } catch (InvalidLivegateConfig e) {
      throw new InvalidLivegateConfig(at + e.getMessage());
    }
  }

  /** The merge lock, the scan, the runner and the failure policy. */
  private void queue() {
    if (config.lockParameter() != null && !PARAMETER.matcher(config.lockParameter()).matches()) {
      throw new InvalidLivegateConfig(
          at
              + "lockParameter must be an SSM path such as /livegate/merge-lock, not "
              + quoted(config.lockParameter()));
    }
    oneOf("lockScope", config.lockScope(), "repo", "units");
    oneOf("scan", config.scan(), "graph", "plan");
    oneOf("runner", config.runner(), "terragrunt", "terraform");
    oneOf("failurePolicy", config.failurePolicy(), "abort_dependents", "abort_all");
  }

  /** The vote's and the whole flow's timeouts, against what Plan and Apply may take. */
  private void timeouts() {
    if (config.approvalTimeout().isNegative()
        || config.approvalTimeout().compareTo(Duration.ofMinutes(5)) < 0) {
      throw new InvalidLivegateConfig(
          at + "approvalTimeout must be at least PT5M, not " + config.approvalTimeout());
    }
    if (config.flowTimeout().compareTo(config.approvalTimeout().plus(LivegateConfig.TASK_STATES))
        < 0) {
      throw new InvalidLivegateConfig(
          at
              + "flowTimeout ("
              + config.flowTimeout()
              + ") must be at least approvalTimeout plus the 6 hours Plan and Apply may take ("
              + config.approvalTimeout().plus(LivegateConfig.TASK_STATES)
              + ")");
    }
    if (config.flowTimeout().compareTo(Duration.ofDays(365)) > 0) {
      throw new InvalidLivegateConfig(
          at + "flowTimeout may be at most a year (Step Functions' limit)");
    }
  }

  /** The VPC: given or created with enough zones and NAT gateways. */
  private void network() {
    if (config.vpcId() != null && !config.vpcId().matches("vpc-[0-9a-f]{8,17}")) {
      throw new InvalidLivegateConfig(
          at + "vpcId must be a VPC id such as vpc-0a1b2c3d, not " + quoted(config.vpcId()));
    }
    if (config.maxAzs() < 2 || config.maxAzs() > 6) {
      throw new InvalidLivegateConfig(
          at + "maxAzs must be between 2 and 6 (Aurora needs two), not " + config.maxAzs());
    }
    if (config.natGateways() < 1 || config.natGateways() > config.maxAzs()) {
      throw new InvalidLivegateConfig(
          at
              + "natGateways must be between 1 and maxAzs: Lambdas and tasks reach GitHub and AWS"
              + " through NAT, not "
              + config.natGateways());
    }
  }

  /** The metadb's capacity range. */
  private void database() {
    if (config.dbMinCapacity() < 0.5
        || config.dbMaxCapacity() < config.dbMinCapacity()
        || config.dbMaxCapacity() > 256) {
      throw new InvalidLivegateConfig(
          at
              + "dbMinCapacity must be at least 0.5 (a paused database would miss GitHub's 10 s"
              + " webhook limit) and dbMaxCapacity between it and 256, not "
              + config.dbMinCapacity()
              + " and "
              + config.dbMaxCapacity());
    }
  }

  /** How long logs and plan files are kept. */
  private void retention() {
    if (!LivegateConfig.RETENTION_DAYS.containsKey(config.logRetentionDays())) {
      throw new InvalidLivegateConfig(
          at
              + "logRetentionDays must be one CloudWatch accepts ("
              + new TreeSet<>(LivegateConfig.RETENTION_DAYS.keySet())
              + "), not "
              + config.logRetentionDays());
    }
    if (config.planRetentionDays() < 1) {
      throw new InvalidLivegateConfig(
          at + "planRetentionDays must be at least 1, not " + config.planRetentionDays());
    }
  }

  /** The ECS tasks' size, which Fargate must offer. */
  private void taskSize() {
    if (!FARGATE_CPU.contains(config.taskCpu())
        || config.taskMemoryMiB() < 2 * config.taskCpu()
        || config.taskMemoryMiB() > 8 * config.taskCpu()
        || config.taskMemoryMiB() % 1024 != 0 && config.taskMemoryMiB() != 512) {
      throw new InvalidLivegateConfig(
          at
              + "taskCpu "
              + config.taskCpu()
              + " with taskMemoryMiB "
              + config.taskMemoryMiB()
              + " is not a Fargate size (cpu one of "
              + new TreeSet<>(FARGATE_CPU)
              + ", memory 2 to 8 times the cpu, in GiB steps)");
    }
  }

  private void oneOf(String field, String value, String... allowed) {
    if (!List.of(allowed).contains(value)) {
      throw new InvalidLivegateConfig(
          at + field + " must be one of " + String.join(", ", allowed) + ", not " + quoted(value));
    }
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "'" + value + "'";
  }
}
