package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Everything an installation chooses, typed and checked before anything is synthesized. The module
 * README documents each field and its default; {@link #fromJson} reads the same fields from the
 * config file or the CDK context.
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
 * @param runner {@code terragrunt} (default) or {@code terraform}
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
    int taskMemoryMiB) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");
  private static final Pattern PARAMETER = Pattern.compile("(/[A-Za-z0-9_.-]+)+");

  private static final Set<Integer> FARGATE_CPU = Set.of(256, 512, 1024, 2048, 4096);

  /** The longest a Plan (2 h) and an Apply (4 h) may take, from the deploy flow's Task timeouts. */
  static final Duration TASK_STATES = Duration.ofHours(6);

  public LivegateConfig {
    accounts = accounts == null ? List.of() : List.copyOf(accounts);
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
   * Checks every field and the accounts as a whole.
   *
   * @param source where the configuration came from, for messages
   * @return this configuration
   * @throws InvalidLivegateConfig naming the source and the field
   */
  public LivegateConfig validate(String source) {
    String at = source + ": ";
    if (repository == null || !REPOSITORY.matcher(repository).matches()) {
      throw new InvalidLivegateConfig(
          at + "repository must be owner/name on GitHub, not " + quoted(repository));
    }
    if (!repositoryUrl.startsWith("https://") || repositoryUrl.contains(" ")) {
      throw new InvalidLivegateConfig(
          at + "repositoryUrl must be an https:// clone URL, not " + quoted(repositoryUrl));
    }
    if (trunk.isBlank() || trunk.contains(" ")) {
      throw new InvalidLivegateConfig(at + "trunk must be a branch name, not " + quoted(trunk));
    }
    if (mailFrom == null || !AccountConfig.EMAIL.matcher(mailFrom).matches()) {
      throw new InvalidLivegateConfig(
          at + "mailFrom must be the e-mail address votes are sent from, not " + quoted(mailFrom));
    }
    if (accounts.isEmpty()) {
      throw new InvalidLivegateConfig(at + "accounts is missing or empty; configure at least one");
    }
    for (int i = 0; i < accounts.size(); i++) {
      accounts.get(i).validate(at + "accounts[" + i + "]");
    }
    Set<String> planRoles = new TreeSet<>(planRoleArns());
    for (AccountConfig account : accounts) {
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
      accountsText();
    } catch (InvalidLivegateConfig e) {
      throw new InvalidLivegateConfig(at + e.getMessage());
    }
    if (lockParameter != null && !PARAMETER.matcher(lockParameter).matches()) {
      throw new InvalidLivegateConfig(
          at
              + "lockParameter must be an SSM path such as /livegate/merge-lock, not "
              + quoted(lockParameter));
    }
    oneOf(at, "lockScope", lockScope, "repo", "units");
    oneOf(at, "scan", scan, "graph", "plan");
    oneOf(at, "runner", runner, "terragrunt", "terraform");
    oneOf(at, "failurePolicy", failurePolicy, "abort_dependents", "abort_all");
    if (approvalTimeout.isNegative() || approvalTimeout.compareTo(Duration.ofMinutes(5)) < 0) {
      throw new InvalidLivegateConfig(
          at + "approvalTimeout must be at least PT5M, not " + approvalTimeout);
    }
    if (flowTimeout.compareTo(approvalTimeout.plus(TASK_STATES)) < 0) {
      throw new InvalidLivegateConfig(
          at
              + "flowTimeout ("
              + flowTimeout
              + ") must be at least approvalTimeout plus the 6 hours Plan and Apply may take ("
              + approvalTimeout.plus(TASK_STATES)
              + ")");
    }
    if (flowTimeout.compareTo(Duration.ofDays(365)) > 0) {
      throw new InvalidLivegateConfig(
          at + "flowTimeout may be at most a year (Step Functions' limit)");
    }
    if (vpcId != null && !vpcId.matches("vpc-[0-9a-f]{8,17}")) {
      throw new InvalidLivegateConfig(
          at + "vpcId must be a VPC id such as vpc-0a1b2c3d, not " + quoted(vpcId));
    }
    if (maxAzs < 2 || maxAzs > 6) {
      throw new InvalidLivegateConfig(
          at + "maxAzs must be between 2 and 6 (Aurora needs two), not " + maxAzs);
    }
    if (natGateways < 1 || natGateways > maxAzs) {
      throw new InvalidLivegateConfig(
          at
              + "natGateways must be between 1 and maxAzs: Lambdas and tasks reach GitHub and AWS"
              + " through NAT, not "
              + natGateways);
    }
    if (dbMinCapacity < 0.5 || dbMaxCapacity < dbMinCapacity || dbMaxCapacity > 256) {
      throw new InvalidLivegateConfig(
          at
              + "dbMinCapacity must be at least 0.5 (a paused database would miss GitHub's 10 s"
              + " webhook limit) and dbMaxCapacity between it and 256, not "
              + dbMinCapacity
              + " and "
              + dbMaxCapacity);
    }
    if (!LogGroups.RETENTION_DAYS.containsKey(logRetentionDays)) {
      throw new InvalidLivegateConfig(
          at
              + "logRetentionDays must be one CloudWatch accepts ("
              + new TreeSet<>(LogGroups.RETENTION_DAYS.keySet())
              + "), not "
              + logRetentionDays);
    }
    if (planRetentionDays < 1) {
      throw new InvalidLivegateConfig(
          at + "planRetentionDays must be at least 1, not " + planRetentionDays);
    }
    if (!FARGATE_CPU.contains(taskCpu)
        || taskMemoryMiB < 2 * taskCpu
        || taskMemoryMiB > 8 * taskCpu
        || taskMemoryMiB % 1024 != 0 && taskMemoryMiB != 512) {
      throw new InvalidLivegateConfig(
          at
              + "taskCpu "
              + taskCpu
              + " with taskMemoryMiB "
              + taskMemoryMiB
              + " is not a Fargate size (cpu one of "
              + new TreeSet<>(FARGATE_CPU)
              + ", memory 2 to 8 times the cpu, in GiB steps)");
    }
    return this;
  }

  /** The merge lock's parameter: {@link #lockParameter} or the stack's default. */
  public String lockParameterFor(String stackName) {
    return lockParameter != null ? lockParameter : "/" + stackName + "/merge-lock";
  }

  private static void oneOf(String at, String field, String value, String... allowed) {
    if (!List.of(allowed).contains(value)) {
      throw new InvalidLivegateConfig(
          at + field + " must be one of " + String.join(", ", allowed) + ", not " + quoted(value));
    }
  }

  private static String quoted(String value) {
    return value == null ? "nothing" : "'" + value + "'";
  }

  /** Reads a JSON config file (format in the module README). */
  public static LivegateConfig fromFile(Path file) {
    JsonNode node;
    try {
      node = JSON.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new InvalidLivegateConfig(
          "cannot read the livegate config " + file + ": " + e.getMessage());
    }
    return fromJson(node, file.toString());
  }

  /**
   * Reads the configuration from JSON: the config file, or an object in the CDK context. Unknown
   * fields are errors, so a typo is never a silent default.
   */
  public static LivegateConfig fromJson(JsonNode node, String source) {
    if (node == null || !node.isObject()) {
      throw new InvalidLivegateConfig(source + ": the livegate config must be a JSON object");
    }
    Fields fields = new Fields(node, source + ": ");
    Builder builder = builder();
    fields.text("repository").ifPresent(builder::repository);
    fields.text("repositoryUrl").ifPresent(builder::repositoryUrl);
    fields.text("trunk").ifPresent(builder::trunk);
    fields.text("mailFrom").ifPresent(builder::mailFrom);
    fields.text("lockParameter").ifPresent(builder::lockParameter);
    fields.text("lockScope").ifPresent(builder::lockScope);
    fields.flag("allowForkPrs").ifPresent(builder::allowForkPrs);
    fields.text("scan").ifPresent(builder::scan);
    fields.text("runner").ifPresent(builder::runner);
    fields.text("failurePolicy").ifPresent(builder::failurePolicy);
    fields.duration("approvalTimeout").ifPresent(builder::approvalTimeout);
    fields.duration("flowTimeout").ifPresent(builder::flowTimeout);
    fields.flag("skipEmpty").ifPresent(builder::skipEmpty);
    fields.text("vpcId").ifPresent(builder::vpcId);
    fields.whole("maxAzs").ifPresent(builder::maxAzs);
    fields.whole("natGateways").ifPresent(builder::natGateways);
    fields.number("dbMinCapacity").ifPresent(builder::dbMinCapacity);
    fields.number("dbMaxCapacity").ifPresent(builder::dbMaxCapacity);
    fields.flag("dbDeletionProtection").ifPresent(builder::dbDeletionProtection);
    fields.whole("logRetentionDays").ifPresent(builder::logRetentionDays);
    fields.whole("planRetentionDays").ifPresent(builder::planRetentionDays);
    fields.whole("taskCpu").ifPresent(builder::taskCpu);
    fields.whole("taskMemoryMiB").ifPresent(builder::taskMemoryMiB);
    JsonNode accounts = fields.take("accounts");
    if (accounts != null) {
      if (!accounts.isArray()) {
        throw new InvalidLivegateConfig(source + ": accounts must be a list of accounts");
      }
      List<AccountConfig> read = new ArrayList<>();
      for (int i = 0; i < accounts.size(); i++) {
        read.add(account(accounts.get(i), source + ": accounts[" + i + "]."));
      }
      builder.accounts(read);
    }
    fields.rejectRest();
    return builder.build().validate(source);
  }

  private static AccountConfig account(JsonNode node, String at) {
    if (!node.isObject()) {
      throw new InvalidLivegateConfig(at.substring(0, at.length() - 1) + " must be an object");
    }
    Fields fields = new Fields(node, at);
    AccountConfig.Builder account =
        AccountConfig.builder(
            fields
                .text("name")
                .orElseThrow(() -> new InvalidLivegateConfig(at + "name is required")));
    fields.text("path").ifPresent(account::path);
    fields.texts("dependsOn").ifPresent(account::dependsOn);
    fields.texts("voters").ifPresent(account::voters);
    fields.whole("minApprovals").ifPresent(account::minApprovals);
    fields.whole("minRejections").ifPresent(account::minRejections);
    fields.text("planRoleArn").ifPresent(account::planRoleArn);
    fields.text("applyRoleArn").ifPresent(account::applyRoleArn);
    fields.rejectRest();
    return account.build();
  }

  /** The fields of one JSON object, each taken once; what is left over is a typo. */
  private static final class Fields {
    private final JsonNode node;
    private final String at;
    private final Set<String> taken = new TreeSet<>();

    Fields(JsonNode node, String at) {
      this.node = node;
      this.at = at;
    }

    JsonNode take(String name) {
      taken.add(name);
      JsonNode value = node.get(name);
      return value == null || value.isNull() ? null : value;
    }

    java.util.Optional<String> text(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return java.util.Optional.empty();
      }
      if (!value.isTextual()) {
        throw new InvalidLivegateConfig(at + name + " must be a string, not " + value);
      }
      return java.util.Optional.of(value.asText());
    }

    java.util.Optional<List<String>> texts(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return java.util.Optional.empty();
      }
      List<String> texts = new ArrayList<>();
      if (value.isArray()) {
        for (JsonNode element : value) {
          if (!element.isTextual()) {
            texts = null;
            break;
          }
          texts.add(element.asText());
        }
      } else {
        texts = null;
      }
      if (texts == null) {
        throw new InvalidLivegateConfig(at + name + " must be a list of strings, not " + value);
      }
      return java.util.Optional.of(texts);
    }

    java.util.Optional<Boolean> flag(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return java.util.Optional.empty();
      }
      if (!value.isBoolean()) {
        throw new InvalidLivegateConfig(at + name + " must be true or false, not " + value);
      }
      return java.util.Optional.of(value.asBoolean());
    }

    java.util.Optional<Integer> whole(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return java.util.Optional.empty();
      }
      if (!value.isIntegralNumber() || !value.canConvertToInt()) {
        throw new InvalidLivegateConfig(at + name + " must be a whole number, not " + value);
      }
      return java.util.Optional.of(value.asInt());
    }

    java.util.Optional<Double> number(String name) {
      JsonNode value = take(name);
      if (value == null) {
        return java.util.Optional.empty();
      }
      if (!value.isNumber()) {
        throw new InvalidLivegateConfig(at + name + " must be a number, not " + value);
      }
      return java.util.Optional.of(value.asDouble());
    }

    java.util.Optional<Duration> duration(String name) {
      return text(name)
          .map(
              value -> {
                try {
                  return Duration.parse(value.toUpperCase(Locale.ROOT));
                } catch (DateTimeParseException e) {
                  throw new InvalidLivegateConfig(
                      at
                          + name
                          + " must be an ISO-8601 duration such as P3D or PT12H, not "
                          + value);
                }
              });
    }

    void rejectRest() {
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!taken.contains(name)) {
          throw new InvalidLivegateConfig(
              at + "unknown field '" + name + "' (known: " + String.join(", ", taken) + ")");
        }
      }
    }
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
    private int planRetentionDays = 30;
    private int taskCpu = 1024;
    private int taskMemoryMiB = 4096;

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
          taskMemoryMiB);
    }
  }
}
