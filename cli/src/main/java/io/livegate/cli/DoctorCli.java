package io.livegate.cli;

import io.livegate.aws.AwsDoctor;
import io.livegate.aws.AwsSettings;
import io.livegate.core.LivegateException;
import io.livegate.github.GitHubApp;
import io.livegate.github.GitHubClient;
import io.livegate.github.GitHubDoctor;
import io.livegate.scan.config.AccountsFile;
import io.livegate.statemachine.RuntimeContract.RunnerVersions;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code livegate doctor}: checks what livegate needs of GitHub (the token's permissions, the
 * webhook, the trunk's required merge-lock status) and, with {@code --aws}, of the deployed stack
 * (the account roles' trust, SES, the runner versions), one line each with its fix; exits 1 when a
 * check fails. The token is LIVEGATE_GITHUB_TOKEN, as for {@code livegate serve}, or a GitHub App's
 * options ({@link GitHubAppOptions}), whose JWT, installation and token it checks instead ({@link
 * GitHubDoctor#checkApp}); AWS credentials and region are the AWS SDK's defaults (environment,
 * profiles, SSO).
 */
@Command(
    name = "doctor",
    footerHeading = "%nExamples:%n",
    footer = {
      "  LIVEGATE_GITHUB_TOKEN=... livegate doctor --repository acme/live",
      "  livegate doctor --repository acme/live --github-app-id Iv23li... \\",
      "      --github-app-installation-id 4567 --github-app-key-file app.pem",
      "  livegate doctor --repository acme/live --aws --stack livegate"
    },
    mixinStandardHelpOptions = true,
    description =
        "Checks the GitHub token's (or GitHub App's) permissions, the webhook and the trunk's branch protection and,"
            + " with --aws, the deployed stack: account roles' trust, SES, runner versions; one"
            + " line each with a fix.")
final class DoctorCli implements Callable<Integer> {
  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;

  @Option(names = "--repository", required = true, paramLabel = "OWNER/NAME")
  String repository;

  @Option(names = "--trunk", defaultValue = "main", paramLabel = "BRANCH")
  String trunk;

  @Option(
      names = "--webhook-url",
      required = true,
      paramLabel = "URL",
      description =
          "Where GitHub should post: livegate serve's /webhook, or the stack's WebhookUrl.")
  String webhookUrl;

  @Option(
      names = "--github-api",
      defaultValue = "https://api.github.com",
      paramLabel = "URL",
      description = "GitHub's API (GitHub Enterprise: https://HOST/api/v3).")
  URI githubApi;

  @Mixin GitHubAppOptions githubApp;

  @ArgGroup(exclusive = false, heading = "AWS checks (--aws):%n")
  Aws aws;

  /** The AWS checks' options, given together with {@code --aws}. */
  static final class Aws {
    @Option(
        names = "--aws",
        required = true,
        description = "Also check the deployed stack in the AWS account and region of the SDK.")
    boolean enabled;

    @Option(
        names = "--mail-from",
        required = true,
        paramLabel = "ADDRESS",
        description = "The CDK config's mailFrom, the SES identity vote mail comes from.")
    String mailFrom;

    @Option(
        names = "--stack",
        defaultValue = "Livegate",
        paramLabel = "NAME",
        description = "The stack's name (the CDK context key livegate:stackName).")
    String stack;

    @Option(
        names = "--account-profile",
        paramLabel = "ACCOUNT_ID=PROFILE",
        description =
            "Read the roles of another AWS account with this profile of the AWS config files;"
                + " repeatable.")
    Map<String, String> accountProfiles = Map.of();

    @Option(
        names = "--terraform-version",
        defaultValue = RunnerVersions.TERRAFORM,
        paramLabel = "VERSION",
        description = "The terraform release the image should install (default ${DEFAULT-VALUE}).")
    String terraformVersion;

    @Option(
        names = "--terragrunt-version",
        defaultValue = RunnerVersions.TERRAGRUNT,
        paramLabel = "VERSION",
        description = "The terragrunt release the image should install (default ${DEFAULT-VALUE}).")
    String terragruntVersion;
  }

  @Override
  public Integer call() {
    Map<String, String> environment = livegate.environment();
    List<GitHubDoctor.Check> checks = new ArrayList<>(github(environment));
    if (aws != null) {
      checks.addAll(
          AwsDoctor.connect(
                  AwsSettings.forOperator(environment),
                  aws.accountProfiles,
                  (name, text) -> AccountsFile.parse(name, text).all())
              .check(
                  new AwsDoctor.Settings(
                      aws.stack, aws.mailFrom, aws.terraformVersion, aws.terragruntVersion)));
    }
    PrintWriter out = spec.commandLine().getOut();
    checks.forEach(check -> out.println(check.line()));
    return checks.stream().allMatch(GitHubDoctor.Check::ok) ? 0 : 1;
  }

  /** The GitHub checks, as the App when its options are given, else with the token. */
  private List<GitHubDoctor.Check> github(Map<String, String> environment) {
    Optional<GitHubApp> app = githubApp.app();
    if (app.isPresent()) {
      return GitHubDoctor.checkApp(
          app.get(),
          token -> GitHubClient.create(githubApi, token),
          Clock.systemUTC(),
          repository,
          trunk,
          webhookUrl);
    }
    String token = environment.get("LIVEGATE_GITHUB_TOKEN");
    if (token == null || token.isBlank()) {
      throw new LivegateException(
          "livegate doctor needs the GitHub token in LIVEGATE_GITHUB_TOKEN, or a GitHub App"
              + " (--github-app-id, --github-app-installation-id, --github-app-key-file)");
    }
    return new GitHubDoctor(GitHubClient.create(githubApi, () -> token))
        .check(repository, trunk, webhookUrl);
  }
}
