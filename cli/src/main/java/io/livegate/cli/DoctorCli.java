package io.livegate.cli;

import io.livegate.core.LivegateException;
import io.livegate.github.GitHubClient;
import io.livegate.github.GitHubDoctor;
import java.io.PrintWriter;
import java.net.URI;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code livegate doctor}: checks what livegate needs of GitHub (the token's permissions, the
 * webhook, the trunk's required merge-lock status), one line each with its fix; exits 1 when a
 * check fails. The token is LIVEGATE_GITHUB_TOKEN, as for {@code livegate serve}.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description =
        "Checks the GitHub token's permissions, the webhook and the trunk's branch protection,"
            + " one line each with a fix.")
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

  @Override
  public Integer call() {
    String token = livegate.environment().get("LIVEGATE_GITHUB_TOKEN");
    if (token == null || token.isBlank()) {
      throw new LivegateException(
          "livegate doctor needs the GitHub token in LIVEGATE_GITHUB_TOKEN");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<GitHubDoctor.Check> checks =
        new GitHubDoctor(GitHubClient.create(githubApi, () -> token))
            .check(repository, trunk, webhookUrl);
    checks.forEach(check -> out.println(check.line()));
    return checks.stream().allMatch(GitHubDoctor.Check::ok) ? 0 : 1;
  }
}
