package io.livegate.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.core.account.Account;
import io.livegate.github.GitHubDoctor.Check;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.statemachine.RuntimeContract.RunnerVersions;
import io.livegate.statemachine.RuntimeContract.TaskFamilies;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.Secret;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.ses.SesClient;
import software.amazon.awssdk.services.ses.model.GetSendQuotaResponse;
import software.amazon.awssdk.services.ses.model.IdentityVerificationAttributes;
import software.amazon.awssdk.services.ses.model.VerificationStatus;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * {@code livegate doctor --aws}: what a deployed stack needs of AWS, each answered with one line
 * and, when it fails, the fix. Nothing is written: every call reads.
 *
 * <ul>
 *   <li>the stack's task definitions exist (found by family, {@link TaskFamilies});
 *   <li>the accounts text, read from the SSM parameter create-deploy-stack's container gets;
 *   <li>each account's plan role trusts every task role that assumes plan roles (terra-run-plan,
 *       pr-plan-unit, create-deploy-stack when it scans by planning, drift when it is scheduled),
 *       and its apply role trusts terra-run-apply's, read from the roles' trust policies (IAM
 *       {@code GetRole}); a role in another AWS account is read with the credentials given for that
 *       account, or the check fails saying so;
 *   <li>the SES identity of the sender is verified, and in the SES sandbox (a sending quota of at
 *       most {@value #SANDBOX_QUOTA} mails a day, which is what the sandbox grants) every voter is
 *       a verified identity, since the sandbox delivers only to those;
 *   <li>the terraform and terragrunt releases the image installs (the task definitions' {@link
 *       RunnerVersions} labels) are the expected ones.
 * </ul>
 */
public final class AwsDoctor {
  /** The most mail a day an account in the SES sandbox may send; production access starts above. */
  static final double SANDBOX_QUOTA = 200;

  private static final ObjectMapper JSON = Jackson.MAPPER;
  private static final int VERIFICATION_BATCH = 100;
  private static final String STS_ASSUME_ROLE = "sts:assumerole";

  /**
   * What to check.
   *
   * @param stack the CDK stack's name ({@code livegate:stackName}, default {@code Livegate})
   * @param mailFrom the config's {@code mailFrom}, the SES identity vote mail is sent from
   * @param terraformVersion the terraform release the image should install
   * @param terragruntVersion the terragrunt release the image should install
   */
  public record Settings(
      String stack, String mailFrom, String terraformVersion, String terragruntVersion) {}

  /** Reads the accounts file the tasks read (scan's {@code AccountsFile}, wired by the caller). */
  @FunctionalInterface
  public interface AccountsReader {
    /**
     * The accounts of {@code text}, read from {@code name}.
     *
     * @throws LivegateException naming what is wrong with the file
     */
    List<Account> read(String name, String text);
  }

  private final EcsClient ecs;
  private final SesClient ses;
  private final SsmClient ssm;
  private final IamClient iam;
  private final Map<String, IamClient> otherAccounts;
  private final AccountsReader accountsReader;

  /**
   * @param iam reads the roles of the stack's own AWS account
   * @param otherAccounts reads the roles of other AWS accounts, by account id
   * @param accountsReader reads the accounts in the SSM parameter
   */
  public AwsDoctor(
      EcsClient ecs,
      SesClient ses,
      SsmClient ssm,
      IamClient iam,
      Map<String, IamClient> otherAccounts,
      AccountsReader accountsReader) {
    this.accountsReader = accountsReader;
    this.ecs = ecs;
    this.ses = ses;
    this.ssm = ssm;
    this.iam = iam;
    this.otherAccounts = Map.copyOf(otherAccounts);
  }

  /**
   * The doctor on {@code settings}' clients; the roles of the AWS accounts in {@code
   * accountProfiles} (account id to a named profile of the AWS config files) are read with that
   * profile's credentials.
   */
  public static AwsDoctor connect(
      AwsSettings settings, Map<String, String> accountProfiles, AccountsReader accountsReader) {
    AwsClients clients = new AwsClients(settings);
    Map<String, IamClient> otherAccounts = new LinkedHashMap<>();
    accountProfiles.forEach(
        (account, profile) ->
            otherAccounts.put(
                account,
                new AwsClients(
                        new AwsSettings(
                            settings.region(),
                            ProfileCredentialsProvider.create(profile),
                            settings.endpoint()))
                    .build(IamClient.builder())));
    return new AwsDoctor(
        clients.build(EcsClient.builder()),
        clients.build(SesClient.builder()),
        clients.build(SsmClient.builder()),
        clients.build(IamClient.builder()),
        otherAccounts,
        accountsReader);
  }

  /** Every check, in order; a later check runs when an earlier one failed, unless it needs it. */
  public List<Check> check(Settings settings) {
    List<Check> checks = new ArrayList<>();
    Map<String, TaskDefinition> tasks = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    for (String task :
        List.of(
            TaskFamilies.CREATE_DEPLOY_STACK,
            TaskFamilies.PR_PLAN_UNIT,
            TaskFamilies.TERRA_RUN_PLAN,
            TaskFamilies.TERRA_RUN_APPLY)) {
      describe(settings.stack(), task, unreadable)
          .ifPresentOrElse(definition -> tasks.put(task, definition), () -> missing.add(task));
    }
    Optional<List<Account>> accounts = Optional.empty();
    if (!unreadable.isEmpty()) {
      checks.add(
          failed(
              "stack",
              "cannot read the task definitions (" + unreadable.get(0) + ")",
              "run the doctor with credentials that may ecs:DescribeTaskDefinition in the stack's"
                  + " account and region"));
    } else if (!missing.isEmpty()) {
      checks.add(
          failed(
              "stack",
              "no task definition "
                  + String.join(
                      ", ",
                      missing.stream()
                          .map(task -> TaskFamilies.family(settings.stack(), task))
                          .toList())
                  + " in this region",
              "deploy the stack (infra-cdk/README.md), or name it with --stack and its region with"
                  + " AWS_REGION"));
    } else {
      describe(settings.stack(), TaskFamilies.DRIFT, unreadable)
          .ifPresent(definition -> tasks.put(TaskFamilies.DRIFT, definition));
      checks.add(
          ok(
              "stack",
              settings.stack()
                  + "'s task definitions "
                  + String.join(
                      ", ",
                      tasks.values().stream()
                          .map(definition -> definition.family() + ":" + definition.revision())
                          .toList())));
      accounts = accounts(tasks.get(TaskFamilies.CREATE_DEPLOY_STACK), checks);
      String applyTaskRole = tasks.get(TaskFamilies.TERRA_RUN_APPLY).taskRoleArn();
      String stackAccount = applyTaskRole.split(":", 6)[4];
      for (Account account : accounts.orElse(List.of())) {
        checks.add(trust(account, "plan", account.planRole(), planTaskRoles(tasks), stackAccount));
        checks.add(
            trust(account, "apply", account.applyRole(), List.of(applyTaskRole), stackAccount));
      }
    }
    checks.add(sender(settings.mailFrom()));
    checks.add(sandbox(accounts));
    if (missing.isEmpty()) {
      checks.add(runnerVersions(tasks, settings));
    }
    return checks;
  }

  /**
   * The task definition, or empty: when ECS knows none (its ClientException), or when it cannot be
   * read, which adds the reason to {@code unreadable}.
   */
  private Optional<TaskDefinition> describe(String stack, String task, List<String> unreadable) {
    try {
      return Optional.of(
          ecs.describeTaskDefinition(
                  request -> request.taskDefinition(TaskFamilies.family(stack, task)))
              .taskDefinition());
    } catch (software.amazon.awssdk.services.ecs.model.ClientException e) {
      return Optional.empty();
    } catch (SdkException e) {
      unreadable.add(reason(e));
      return Optional.empty();
    }
  }

  /** Reads the accounts text from the parameter create-deploy-stack's container gets. */
  private Optional<List<Account>> accounts(TaskDefinition createDeployStack, List<Check> checks) {
    String what = "accounts";
    Optional<String> parameter =
        container(createDeployStack).secrets().stream()
            .filter(secret -> secret.name().equals(RuntimeContract.Tasks.ACCOUNTS))
            .map(Secret::valueFrom)
            .findFirst();
    if (parameter.isEmpty()) {
      checks.add(
          failed(
              what,
              createDeployStack.family()
                  + " gets no "
                  + RuntimeContract.Tasks.ACCOUNTS
                  + " from an SSM parameter",
              "deploy the stack again with this livegate's infra-cdk"));
      return Optional.empty();
    }
    String name = parameterName(parameter.get());
    String text;
    try {
      text = ssm.getParameter(request -> request.name(name)).parameter().value();
    } catch (SdkException e) {
      checks.add(
          failed(
              what,
              "cannot read the SSM parameter " + name + " (" + reason(e) + ")",
              "run the doctor with credentials that may ssm:GetParameter on it"));
      return Optional.empty();
    }
    try {
      List<Account> accounts = accountsReader.read(name, text);
      checks.add(
          ok(
              what,
              accounts.size()
                  + (accounts.size() == 1 ? " account" : " accounts")
                  + " in the SSM parameter "
                  + name));
      return Optional.of(accounts);
    } catch (LivegateException e) {
      checks.add(
          failed(
              what,
              e.getMessage(),
              "correct the accounts in the CDK config (infra-cdk/README.md) and deploy again"));
      return Optional.empty();
    }
  }

  /** The roles that assume the accounts' plan roles. */
  private static List<String> planTaskRoles(Map<String, TaskDefinition> tasks) {
    List<String> roles = new ArrayList<>();
    roles.add(tasks.get(TaskFamilies.TERRA_RUN_PLAN).taskRoleArn());
    roles.add(tasks.get(TaskFamilies.PR_PLAN_UNIT).taskRoleArn());
    TaskDefinition createDeployStack = tasks.get(TaskFamilies.CREATE_DEPLOY_STACK);
    boolean scansByPlanning =
        container(createDeployStack).environment().stream()
            .anyMatch(
                variable ->
                    variable.name().equals(RuntimeContract.Tasks.SCAN)
                        && variable.value().equals("plan"));
    if (scansByPlanning) {
      roles.add(createDeployStack.taskRoleArn());
    }
    if (tasks.containsKey(TaskFamilies.DRIFT)) {
      roles.add(tasks.get(TaskFamilies.DRIFT).taskRoleArn());
    }
    return roles;
  }

  private Check trust(
      Account account, String kind, String roleArn, List<String> taskRoles, String stackAccount) {
    String what = "account " + account.name() + " " + kind + " role";
    String fix =
        "let its trust policy allow sts:AssumeRole to "
            + String.join(", ", taskRoles)
            + " (the stack's task roles; docs/accounts.md)";
    if (roleArn == null) {
      return failed(what, "none is configured", "set " + kind + "_role in the accounts");
    }
    String[] arn = roleArn.split(":", 6);
    if (arn.length < 6 || !arn[5].startsWith("role/")) {
      return failed(what, roleArn + " is not an IAM role ARN", "set a role ARN");
    }
    String roleAccount = arn[4];
    Optional<IamClient> reader =
        roleAccount.equals(stackAccount)
            ? Optional.of(iam)
            : Optional.ofNullable(otherAccounts.get(roleAccount));
    if (reader.isEmpty()) {
      return failed(
          what,
          roleArn
              + " is in AWS account "
              + roleAccount
              + ", whose IAM these credentials do not read",
          "pass --account-profile "
              + roleAccount
              + "=PROFILE (a profile that may iam:GetRole there), or check by hand: "
              + fix);
    }
    String roleName = arn[5].substring(arn[5].lastIndexOf('/') + 1);
    JsonNode policy;
    try {
      String document =
          reader
              .get()
              .getRole(request -> request.roleName(roleName))
              .role()
              .assumeRolePolicyDocument();
      policy = JSON.readTree(URLDecoder.decode(document, StandardCharsets.UTF_8));
    } catch (SdkException e) {
      return failed(
          what, "cannot read " + roleArn + " (" + reason(e) + ")", "create it, then " + fix);
    } catch (IOException e) {
      return failed(what, roleArn + "'s trust policy is not JSON", fix);
    }
    List<String> untrusted = new ArrayList<>();
    for (String taskRole : taskRoles) {
      if (!trusts(policy, taskRole)) {
        untrusted.add(taskRole);
      }
    }
    return untrusted.isEmpty()
        ? ok(what, roleArn + " trusts " + String.join(", ", taskRoles))
        : failed(
            what,
            roleArn + " does not trust " + String.join(", ", untrusted),
            "let its trust policy allow sts:AssumeRole to " + String.join(", ", untrusted));
  }

  /**
   * Whether a trust policy lets {@code roleArn} call sts:AssumeRole: an Allow statement for the
   * action that names the role or its account (root), and no Deny statement that names either.
   * Conditions are not evaluated.
   */
  static boolean trusts(JsonNode policy, String roleArn) {
    String account = roleArn.split(":", 6)[4];
    Set<String> names = Set.of(roleArn, account, "arn:aws:iam::" + account + ":root", "*");
    boolean allowed = false;
    JsonNode statements = policy.path("Statement");
    for (JsonNode statement : statements.isArray() ? statements : List.of(statements)) {
      if (!assumesRole(statement.path("Action")) || !namesAny(statement.path("Principal"), names)) {
        continue;
      }
      if (statement.path("Effect").asText().equals("Deny")) {
        return false;
      }
      allowed |= statement.path("Effect").asText().equals("Allow");
    }
    return allowed;
  }

  private static boolean assumesRole(JsonNode action) {
    for (JsonNode one : action.isArray() ? action : List.of(action)) {
      String name = one.asText().toLowerCase(Locale.ROOT);
      if (name.equals(STS_ASSUME_ROLE) || name.equals("sts:*") || name.equals("*")) {
        return true;
      }
    }
    return false;
  }

  private static boolean namesAny(JsonNode principal, Set<String> names) {
    JsonNode aws = principal.isTextual() ? principal : principal.path("AWS");
    for (JsonNode one : aws.isArray() ? aws : List.of(aws)) {
      if (names.contains(one.asText())) {
        return true;
      }
    }
    return false;
  }

  private Check sender(String mailFrom) {
    String what = "SES sender";
    Set<String> verified;
    try {
      verified = verified(List.of(mailFrom));
    } catch (SdkException e) {
      return failed(
          what,
          "cannot read SES identities (" + reason(e) + ")",
          "run the doctor with credentials that may ses:GetIdentityVerificationAttributes");
    }
    return verified.contains(mailFrom)
        ? ok(what, mailFrom + " is a verified SES identity")
        : failed(
            what,
            mailFrom + " is not a verified SES identity (nor is its domain)",
            "confirm the mail AWS sent to "
                + mailFrom
                + " after the deploy, or verify it: aws ses verify-email-identity --email-address "
                + mailFrom);
  }

  /** In the sandbox, the voters of {@code accounts}, when they could be read, must be verified. */
  private Check sandbox(Optional<List<Account>> accounts) {
    String what = "SES sandbox";
    GetSendQuotaResponse quota;
    try {
      quota = ses.getSendQuota();
    } catch (SdkException e) {
      return failed(
          what,
          "cannot read the sending quota (" + reason(e) + ")",
          "run the doctor with credentials that may ses:GetSendQuota");
    }
    String limit = String.format(Locale.ROOT, "%.0f mails a day", quota.max24HourSend());
    if (quota.max24HourSend() > SANDBOX_QUOTA) {
      return ok(what, "production access (" + limit + "): mail reaches any voter");
    }
    if (accounts.isEmpty()) {
      return ok(
          what,
          "in the sandbox ("
              + limit
              + "), which mails only verified identities; the voters are not checked without"
              + " the stack's accounts");
    }
    Set<String> voters = new LinkedHashSet<>();
    accounts.get().forEach(account -> voters.addAll(account.voters()));
    List<String> unverified;
    try {
      Set<String> verified = verified(List.copyOf(voters));
      unverified = voters.stream().filter(voter -> !verified.contains(voter)).toList();
    } catch (SdkException e) {
      return failed(
          what,
          "in the sandbox (" + limit + "); cannot read the voters' identities (" + reason(e) + ")",
          "run the doctor with credentials that may ses:GetIdentityVerificationAttributes");
    }
    if (unverified.isEmpty()) {
      return ok(
          what,
          "in the sandbox ("
              + limit
              + "), which mails only verified identities; all "
              + voters.size()
              + " voters are verified");
    }
    return failed(
        what,
        "in the sandbox ("
            + limit
            + "), which mails only verified identities, and these voters are not: "
            + String.join(", ", unverified),
        "verify each (aws ses verify-email-identity --email-address ADDRESS, then the voter"
            + " confirms AWS's mail), or request production access in the SES console");
  }

  /**
   * The addresses among {@code addresses} that SES may send from or to: each verified itself or
   * through its domain.
   */
  private Set<String> verified(List<String> addresses) {
    List<String> identities = new ArrayList<>();
    for (String address : addresses) {
      identities.add(address);
      identities.add(address.substring(address.indexOf('@') + 1));
    }
    Map<String, IdentityVerificationAttributes> attributes = new LinkedHashMap<>();
    List<String> distinct = List.copyOf(new LinkedHashSet<>(identities));
    for (int from = 0; from < distinct.size(); from += VERIFICATION_BATCH) {
      List<String> batch =
          distinct.subList(from, Math.min(distinct.size(), from + VERIFICATION_BATCH));
      attributes.putAll(
          ses.getIdentityVerificationAttributes(request -> request.identities(batch))
              .verificationAttributes());
    }
    Set<String> verified = new LinkedHashSet<>();
    for (String address : addresses) {
      String domain = address.substring(address.indexOf('@') + 1);
      for (String identity : List.of(address, domain)) {
        IdentityVerificationAttributes status = attributes.get(identity);
        if (status != null && status.verificationStatus() == VerificationStatus.SUCCESS) {
          verified.add(address);
        }
      }
    }
    return verified;
  }

  private static Check runnerVersions(Map<String, TaskDefinition> tasks, Settings settings) {
    String what = "runner versions";
    String expected =
        "terraform " + settings.terraformVersion() + ", terragrunt " + settings.terragruntVersion();
    Set<String> found = new LinkedHashSet<>();
    List<String> unlabelled = new ArrayList<>();
    for (TaskDefinition definition : tasks.values()) {
      Map<String, String> labels = container(definition).dockerLabels();
      String terraform = labels.get(RunnerVersions.TERRAFORM_LABEL);
      String terragrunt = labels.get(RunnerVersions.TERRAGRUNT_LABEL);
      if (terraform == null || terragrunt == null) {
        unlabelled.add(definition.family());
      } else {
        found.add("terraform " + terraform + ", terragrunt " + terragrunt);
      }
    }
    if (!unlabelled.isEmpty()) {
      return failed(
          what,
          String.join(", ", unlabelled) + " do not say which releases their image installs",
          "deploy the stack again with this livegate's infra-cdk, which labels them");
    }
    if (found.equals(Set.of(expected))) {
      return ok(what, "the image installs " + expected);
    }
    return failed(
        what,
        "the image installs " + String.join("; ", found) + ", expected " + expected,
        "set terraformVersion and terragruntVersion in the CDK config and deploy again, or pass"
            + " --terraform-version and --terragrunt-version when the image's releases are the"
            + " ones you chose (check terragrunt's flags as infra-cdk/README.md says)");
  }

  private static ContainerDefinition container(TaskDefinition definition) {
    return definition.containerDefinitions().get(0);
  }

  /** The name of an SSM parameter given by name or ARN ({@code arn:aws:ssm:…:parameter/NAME}). */
  static String parameterName(String nameOrArn) {
    int at = nameOrArn.indexOf(":parameter/");
    if (!nameOrArn.startsWith("arn:") || at < 0) {
      return nameOrArn;
    }
    String rest = nameOrArn.substring(at + ":parameter/".length());
    // A hierarchical name starts with a slash, which the ARN leaves out.
    return rest.contains("/") ? "/" + rest : rest;
  }

  private static String reason(SdkException e) {
    if (e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException service
        && service.awsErrorDetails() != null) {
      return service.awsErrorDetails().errorCode();
    }
    return e.getMessage();
  }

  private static Check ok(String what, String detail) {
    return new Check(true, what, detail, "");
  }

  private static Check failed(String what, String detail, String fix) {
    return new Check(false, what, detail, fix);
  }
}
