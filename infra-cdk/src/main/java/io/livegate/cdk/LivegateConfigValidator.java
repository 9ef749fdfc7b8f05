package io.livegate.cdk;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks a configuration before anything is synthesized: each field, each account, and the accounts
 * as a whole. Each check below is one rule of the module README; the first one broken throws {@link
 * InvalidLivegateConfig}, whose message starts with the configuration's source and names the field.
 */
final class LivegateConfigValidator {
  private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");
  private static final Pattern PARAMETER = Pattern.compile("(/[A-Za-z0-9_.-]+)+");
  private static final Pattern DOMAIN =
      Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}");
  static final Pattern TASK_IMAGE =
      Pattern.compile("([a-z0-9.-]+(:[0-9]+)?/)?[a-z0-9._/-]+@(sha256:[0-9a-f]{64})");
  private static final Pattern EMAIL =
      Pattern.compile("[^@\\s\"\\\\]+@[^@\\s\"\\\\]+\\.[^@\\s\"\\\\]+");

  /** An IAM role ARN in any partition, as STS accepts it for AssumeRole. */
  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws(-[a-z]+)*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");

  private static final Set<Integer> FARGATE_CPU = Set.of(256, 512, 1024, 2048, 4096);

  /** The longest a Plan (2 h) and an Apply (4 h) may take, from the deploy flow's Task timeouts. */
  private static final Duration TASK_STATES = Duration.ofHours(6);

  private final LivegateConfig config;
  private final String at;

  private LivegateConfigValidator(LivegateConfig config, String source) {
    this.config = config;
    this.at = source + ": ";
  }

  /**
   * Checks every field and the accounts as a whole.
   *
   * @param source where the configuration came from, for messages
   * @throws InvalidLivegateConfig naming the source and the field
   */
  static void validate(LivegateConfig config, String source) {
    new LivegateConfigValidator(config, source).checkAll();
  }

  private void checkAll() {
    repository();
    repositoryUrl();
    trunk();
    mailFrom();
    accounts();
    planRolesCannotApply();
    accountsText();
    lockParameter();
    oneOf("lockScope", config.lockScope(), "repo", "units");
    oneOf("scan", config.scan(), "graph", "plan");
    runner();
    tools();
    oneOf("failurePolicy", config.failurePolicy(), "abort_dependents", "abort_all");
    approvalTimeout();
    flowTimeout();
    vpcId();
    taskImage();
    maxAzs();
    natGateways();
    dbCapacity();
    logRetentionDays();
    planRetentionDays();
    taskSize();
    driftSchedule();
    moduleSources();
    alarms();
    roleSessionDuration();
    if (config.functionUrlConcurrency() < 0 || config.functionUrlConcurrency() > 1000) {
      throw invalid(
          "functionUrlConcurrency must be between 0 (none reserved) and 1000, not "
              + config.functionUrlConcurrency());
    }
  }

  /** STS's DurationSeconds: from 15 minutes to 12 hours, the most any role allows. */
  private void roleSessionDuration() {
    Duration duration = config.roleSessionDuration();
    if (duration == null
        || duration.compareTo(Duration.ofMinutes(15)) < 0
        || duration.compareTo(Duration.ofHours(12)) > 0) {
      throw invalid(
          "roleSessionDuration must be between PT15M and PT12H (and at most the roles' maximum"
              + " session duration), not "
              + duration);
    }
  }

  /**
   * Real addresses for the alarms' topic; a scan timeout long enough for a checkout and a scan (the
   * watchdog checks every 5 minutes); a lock alarm no sooner than a scan could hold the lock.
   */
  private void alarms() {
    for (int i = 0; i < config.alarmEmails().size(); i++) {
      String address = config.alarmEmails().get(i);
      if (address == null || !EMAIL.matcher(address).matches()) {
        throw invalid("alarmEmails[" + i + "] must be an e-mail address, not " + quoted(address));
      }
    }
    Duration scanTimeout = config.scanTimeout();
    if (scanTimeout == null || scanTimeout.compareTo(Duration.ofMinutes(10)) < 0) {
      throw invalid("scanTimeout must be at least PT10M, not " + scanTimeout);
    }
    Duration lockAlarmAfter = config.lockAlarmAfter();
    if (lockAlarmAfter == null || lockAlarmAfter.compareTo(scanTimeout) <= 0) {
      throw invalid(
          "lockAlarmAfter must be longer than scanTimeout ("
              + scanTimeout
              + "), not "
              + lockAlarmAfter);
    }
  }

  /** A complete secret ARN (IAM grants need its suffix), and a scheme and host without a path. */
  private void moduleSources() {
    String secret = config.moduleSourcesTokenSecretArn();
    if (secret != null
        && !secret.matches(
            "arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}")) {
      throw invalid(
          "moduleSourcesTokenSecretArn must be a secret's complete ARN"
              + " (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-SUFFIX), not "
              + quoted(secret));
    }
    String host = config.moduleSourcesHost();
    if (host == null || !host.matches("https?://[A-Za-z0-9.-]+(:\\d+)?")) {
      throw invalid(
          "moduleSourcesHost must be a scheme and host such as https://github.com, not "
              + quoted(host));
    }
  }

  /** EventBridge's forms: rate(N unit) or cron(six fields). */
  private void driftSchedule() {
    String schedule = config.driftSchedule();
    if (schedule != null
        && !schedule.matches("rate\\(\\d+ (minute|minutes|hour|hours|day|days)\\)")
        && !schedule.matches("cron\\((\\S+ ){5}\\S+\\)")) {
      throw invalid(
          "driftSchedule must be an EventBridge schedule, rate(1 day) or cron(0 6 * * ? *), not "
              + quoted(schedule));
    }
    if (config.driftReconcile() && schedule == null) {
      throw invalid(
          "driftReconcile reconciles what the scheduled drift run finds: set driftSchedule too");
    }
  }

  private void repository() {
    String repository = config.repository();
    if (repository == null || !REPOSITORY.matcher(repository).matches()) {
      throw invalid("repository must be owner/name on GitHub, not " + quoted(repository));
    }
  }

  private void repositoryUrl() {
    String url = config.repositoryUrl();
    if (!url.startsWith("https://") || url.contains(" ")) {
      throw invalid("repositoryUrl must be an https:// clone URL, not " + quoted(url));
    }
  }

  private void trunk() {
    String trunk = config.trunk();
    if (trunk.isBlank() || trunk.contains(" ")) {
      throw invalid("trunk must be a branch name, not " + quoted(trunk));
    }
  }

  private void mailFrom() {
    String mailFrom = config.mailFrom();
    if (mailFrom == null || !EMAIL.matcher(mailFrom).matches()) {
      throw invalid(
          "mailFrom must be the e-mail address votes are sent from, not " + quoted(mailFrom));
    }
    String domain = config.mailDomain();
    if (domain != null) {
      String sender = mailFrom.substring(mailFrom.indexOf('@') + 1).toLowerCase(Locale.ROOT);
      String lower = domain.toLowerCase(Locale.ROOT);
      if (!DOMAIN.matcher(lower).matches()
          || !(sender.equals(lower) || sender.endsWith("." + lower))) {
        throw invalid(
            "mailDomain must be the domain of mailFrom ("
                + sender
                + ") or a parent of it, not "
                + quoted(domain));
      }
    }
  }

  private void accounts() {
    List<AccountConfig> accounts = config.accounts();
    if (accounts.isEmpty()) {
      throw invalid("accounts is missing or empty; configure at least one");
    }
    for (int i = 0; i < accounts.size(); i++) {
      account(accounts.get(i), at + "accounts[" + i + "]");
    }
  }

  /**
   * Checks what a single account can check; what needs all accounts (unknown dependencies, cycles,
   * shared paths) is checked by {@link #accountsText}.
   *
   * @param where the account's position in the configuration, for messages
   */
  private static void account(AccountConfig account, String where) {
    if (account.name() == null || !account.name().matches("[A-Za-z0-9_-]+")) {
      throw new InvalidLivegateConfig(
          where + ".name must be letters, digits, '_' or '-', not " + quoted(account.name()));
    }
    String named = where + " (account \"" + account.name() + "\")";
    if (account.path() == null) {
      throw new InvalidLivegateConfig(named + ": path is required (\"\" for the whole repository)");
    }
    voters(account, named);
    threshold(named, "minApprovals", account.minApprovals(), account.voters().size());
    threshold(named, "minRejections", account.minRejections(), account.voters().size());
    role(named, "planRoleArn", account.planRoleArn());
    role(named, "applyRoleArn", account.applyRoleArn());
    if (account.planRoleArn().equals(account.applyRoleArn())) {
      throw new InvalidLivegateConfig(
          named
              + ": planRoleArn and applyRoleArn are the same role; pull-request plans run with the"
              + " plan role, so it must not be able to apply");
    }
  }

  private static void voters(AccountConfig account, String named) {
    if (account.voters().isEmpty()) {
      throw new InvalidLivegateConfig(
          named + ": voters is missing or empty; every account needs someone to vote on its plans");
    }
    for (String voter : account.voters()) {
      if (voter == null || !EMAIL.matcher(voter).matches()) {
        throw new InvalidLivegateConfig(
            named + ": voter " + quoted(voter) + " is not an e-mail address");
      }
    }
  }

  private static void threshold(String named, String field, int value, int voters) {
    if (value < 1 || value > voters) {
      throw new InvalidLivegateConfig(
          named + ": " + field + " must be between 1 and the " + voters + " voters, not " + value);
    }
  }

  private static void role(String named, String field, String arn) {
    if (arn == null || arn.isBlank()) {
      throw new InvalidLivegateConfig(named + ": " + field + " is required");
    }
    if (!ROLE_ARN.matcher(arn).matches()) {
      throw new InvalidLivegateConfig(
          named
              + ": "
              + field
              + " "
              + quoted(arn)
              + " is not an IAM role ARN such as arn:aws:iam::123456789012:role/livegate-plan");
    }
  }

  /** Pull-request code plans with the plan roles, so no plan role may be an apply role too. */
  private void planRolesCannotApply() {
    Set<String> planRoles = new TreeSet<>(config.planRoleArns());
    for (AccountConfig account : config.accounts()) {
      if (planRoles.contains(account.applyRoleArn())) {
        throw invalid(
            "account \""
                + account.name()
                + "\": applyRoleArn "
                + account.applyRoleArn()
                + " is another account's plan role; plan roles must not be able to apply");
      }
    }
  }

  /** The accounts as a whole, read back as the tasks read them: dependencies, cycles, paths. */
  private void accountsText() {
    try {
      config.accountsText();
    } catch (InvalidLivegateConfig e) {
      throw invalid(e.getMessage());
    }
  }

  private void lockParameter() {
    String parameter = config.lockParameter();
    if (parameter != null && !PARAMETER.matcher(parameter).matches()) {
      throw invalid(
          "lockParameter must be an SSM path such as /livegate/merge-lock, not "
              + quoted(parameter));
    }
  }

  private void oneOf(String field, String value, String... allowed) {
    if (!List.of(allowed).contains(value)) {
      throw invalid(
          field + " must be one of " + String.join(", ", allowed) + ", not " + quoted(value));
    }
  }

  /**
   * Only terragrunt runs on AWS: the terraform runner assumes no account role (it would plan and
   * apply with the task's own role) and its apply task never runs init, so it cannot work there.
   */
  private void runner() {
    if ("terraform".equals(config.runner())) {
      throw invalid(
          "runner terraform cannot run on AWS: it assumes no account role (plans and applies would"
              + " run with the task's own role) and its apply task never runs init; use"
              + " terragrunt, which assumes each account's plan and apply roles and inits itself");
    }
    oneOf("runner", config.runner(), "terragrunt");
  }

  private void tools() {
    RunnerTools tools = config.tools();
    version("terraformVersion", tools.terraformVersion());
    version("terragruntVersion", tools.terragruntVersion());
    checksum(
        "terraformSha256",
        tools.terraformSha256(),
        "terraformVersion " + tools.terraformVersion(),
        "terraform_" + tools.terraformVersion() + "_linux_amd64.zip");
    checksum(
        "terragruntSha256",
        tools.terragruntSha256(),
        "terragruntVersion " + tools.terragruntVersion(),
        "terragrunt_linux_amd64");
  }

  private void version(String field, String version) {
    if (version == null || !version.matches("[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?")) {
      throw invalid(field + " must be a release version such as 1.1.3, not " + quoted(version));
    }
  }

  /** A version other than livegate's needs its checksum pinned, or waived in so many words. */
  private void checksum(String field, String sha256, String version, String file) {
    if (sha256 == null) {
      throw invalid(
          version
              + " has no "
              + field
              + ": set it to the SHA-256 of "
              + file
              + " from the release's SHA256SUMS, or to \""
              + RunnerTools.UNPINNED
              + "\" to trust the SHA256SUMS downloaded with the release");
    }
    if (!sha256.equals(RunnerTools.UNPINNED) && !sha256.matches("[0-9a-f]{64}")) {
      throw invalid(
          field
              + " must be 64 lowercase hex digits (a SHA-256) or \""
              + RunnerTools.UNPINNED
              + "\", not "
              + quoted(sha256));
    }
  }

  private void approvalTimeout() {
    Duration timeout = config.approvalTimeout();
    if (timeout.isNegative() || timeout.compareTo(Duration.ofMinutes(5)) < 0) {
      throw invalid("approvalTimeout must be at least PT5M, not " + timeout);
    }
  }

  /** Room for the vote and both tasks, within Step Functions' limit of a year. */
  private void flowTimeout() {
    Duration timeout = config.flowTimeout();
    Duration least = config.approvalTimeout().plus(TASK_STATES);
    if (timeout.compareTo(least) < 0) {
      throw invalid(
          "flowTimeout ("
              + timeout
              + ") must be at least approvalTimeout plus the 6 hours Plan and Apply may take ("
              + least
              + ")");
    }
    if (timeout.compareTo(Duration.ofDays(365)) > 0) {
      throw invalid("flowTimeout may be at most a year (Step Functions' limit)");
    }
  }

  private void taskImage() {
    String image = config.taskImage();
    if (image != null && !TASK_IMAGE.matcher(image).matches()) {
      throw invalid(
          "taskImage must be an image pinned by its digest, REGISTRY/REPOSITORY@sha256:<64 hex>"
              + " (a tag can be moved to another image), not "
              + quoted(image));
    }
  }

  private void vpcId() {
    String vpcId = config.vpcId();
    if (vpcId != null && !vpcId.matches("vpc-[0-9a-f]{8,17}")) {
      throw invalid("vpcId must be a VPC id such as vpc-0a1b2c3d, not " + quoted(vpcId));
    }
  }

  private void maxAzs() {
    if (config.maxAzs() < 2 || config.maxAzs() > 6) {
      throw invalid("maxAzs must be between 2 and 6 (Aurora needs two), not " + config.maxAzs());
    }
  }

  private void natGateways() {
    if (config.natGateways() < 1 || config.natGateways() > config.maxAzs()) {
      throw invalid(
          "natGateways must be between 1 and maxAzs: Lambdas and tasks reach GitHub and AWS"
              + " through NAT, not "
              + config.natGateways());
    }
  }

  private void dbCapacity() {
    double min = config.dbMinCapacity();
    double max = config.dbMaxCapacity();
    if (min < 0.5 || max < min || max > 256) {
      throw invalid(
          "dbMinCapacity must be at least 0.5 (a paused database would miss GitHub's 10 s"
              + " webhook limit) and dbMaxCapacity between it and 256, not "
              + min
              + " and "
              + max);
    }
  }

  private void logRetentionDays() {
    if (!LogGroups.RETENTION_DAYS.containsKey(config.logRetentionDays())) {
      throw invalid(
          "logRetentionDays must be one CloudWatch accepts ("
              + new TreeSet<>(LogGroups.RETENTION_DAYS.keySet())
              + "), not "
              + config.logRetentionDays());
    }
  }

  private void planRetentionDays() {
    if (config.planRetentionDays() < 1) {
      throw invalid("planRetentionDays must be at least 1, not " + config.planRetentionDays());
    }
  }

  private void taskSize() {
    int cpu = config.taskCpu();
    int memory = config.taskMemoryMiB();
    if (!FARGATE_CPU.contains(cpu)
        || memory < 2 * cpu
        || memory > 8 * cpu
        || memory % 1024 != 0 && memory != 512) {
      throw invalid(
          "taskCpu "
              + cpu
              + " with taskMemoryMiB "
              + memory
              + " is not a Fargate size (cpu one of "
              + new TreeSet<>(FARGATE_CPU)
              + ", memory 2 to 8 times the cpu, in GiB steps)");
    }
  }

  private InvalidLivegateConfig invalid(String message) {
    return new InvalidLivegateConfig(at + message);
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "'" + value + "'";
  }
}
