package io.livegate.cli;

import io.livegate.cli.local.LocalPipeline;
import io.livegate.cli.local.LocalPullRequestPlanner;
import io.livegate.cli.local.LocalWiring;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.cli.local.VoteServer;
import io.livegate.core.LivegateException;
import io.livegate.core.Printable;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CommitStatusPublisher;
import io.livegate.core.deploy.LoggedStatuses;
import io.livegate.core.pr.LockScope;
import io.livegate.core.pr.PlanComments;
import io.livegate.core.runner.RunnerArgv;
import io.livegate.core.webhook.WebhookSettings;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.github.GitHubApp;
import io.livegate.github.GitHubClient;
import io.livegate.github.GitHubComments;
import io.livegate.github.GitHubStatuses;
import io.livegate.github.InstallationTokens;
import io.livegate.scan.config.AccountCoverage;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code livegate serve}: the webhook receiver and the whole pipeline on one machine. */
@Command(
    name = "serve",
    footerHeading = "%nExamples:%n",
    footer = {
      "  LIVEGATE_WEBHOOK_SECRET=... livegate serve --repo-url https://github.com/acme/live \\",
      "      --state-dir /var/lib/livegate --listen 0.0.0.0 --accounts livegate.hcl"
    },
    mixinStandardHelpOptions = true,
    description = {
      "Receives GitHub's webhooks on POST /webhook and runs livegate on this machine: plans of pull"
          + " requests, the merge lock in the metadb, and each merge's deployment in merge order,"
          + " with votes through the pages on the same port.",
      "Point the repository's webhook (content type application/json, event: pull requests) at"
          + " http://HOST:PORT/webhook with the same secret."
    })
final class ServeCli implements Callable<Integer> {
  private static final Pattern GITHUB_URL =
      Pattern.compile("(?:https://github\\.com/|git@github\\.com:)([^/]+/[^/]+?)(?:\\.git)?/?");

  @ParentCommand private Livegate livegate;
  @Spec private CommandSpec spec;
  @Mixin private LocalOptions local;
  @Mixin private RunOptions run;

  @Option(
      names = "--repo-url",
      paramLabel = "URL",
      required = true,
      description = "Where to clone the live repository from (https, ssh or a local path).")
  private String repoUrl;

  @Option(
      names = "--repository",
      paramLabel = "OWNER/NAME",
      description = "The GitHub repository served (default: taken from a github.com --repo-url).")
  private String repository;

  @Option(
      names = "--trunk",
      paramLabel = "BRANCH",
      defaultValue = "main",
      description = "The branch that deploys (default: ${DEFAULT-VALUE}).")
  private String trunk;

  @Option(
      names = "--accounts",
      paramLabel = "FILE",
      description = "Accounts file (docs/accounts.md); without it the repository is one account.")
  private Path accountsFile;

  @Option(
      names = "--listen",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address to listen on; use 0.0.0.0 behind a proxy that GitHub reaches (default: ${DEFAULT-VALUE}).")
  private String listen;

  @Option(
      names = "--public-url",
      paramLabel = "URL",
      description =
          "The URL voters and GitHub reach this server at (e.g. https://livegate.example.com behind"
              + " a proxy), for vote links and the webhook URL; default: http://LISTEN:PORT.")
  private String publicUrl;

  @Option(
      names = "--webhook-secret-file",
      paramLabel = "FILE",
      description = "File holding the webhook secret (else the LIVEGATE_WEBHOOK_SECRET variable).")
  private Path webhookSecretFile;

  @Option(
      names = "--github-token-file",
      paramLabel = "FILE",
      description =
          "File holding a GitHub token for statuses and HTTPS clones (else LIVEGATE_GITHUB_TOKEN); without one, statuses are logged.")
  private Path githubTokenFile;

  @Mixin private GitHubAppOptions githubApp;

  @Option(
      names = "--lock-scope",
      paramLabel = "repo|units",
      defaultValue = "repo",
      description =
          "repo: a deployment in progress blocks every pull request; units: only those that change its units (default: ${DEFAULT-VALUE}).")
  private String lockScope;

  @Option(
      names = "--github-api-url",
      paramLabel = "URL",
      defaultValue = "https://api.github.com",
      description = "GitHub's REST API, for GitHub Enterprise Server (default: ${DEFAULT-VALUE}).")
  private URI githubApiUrl;

  @Option(
      names = "--retry-limit",
      paramLabel = "N",
      defaultValue = "" + LocalPipeline.RETRY_LIMIT,
      description =
          "How many times in a row a deployment that stopped on an error is run again (after 5 s,"
              + " doubling up to 5 min) before it is left, running and holding the merge lock, to"
              + " an operator (default: ${DEFAULT-VALUE}, about 15 minutes). A resource running"
              + " out (disk, memory, file descriptors, the metadb's connections) is retried until"
              + " it is freed.")
  private int retryLimit;

  @Option(
      names = "--allow-fork-prs",
      description = "Plan pull requests from forks too (their code runs during plan).")
  private boolean allowForkPrs;

  @Override
  public Integer call() throws InterruptedException {
    RunnerArgv kind = run.kind();
    Map<String, String> environment = livegate.environment();
    LocalRun.requireTool(kind, environment);
    PrintWriter out = spec.commandLine().getOut();
    String served = repository != null ? repository : repositoryOf(repoUrl);
    byte[] secret =
        WebhookSignature.secret(
            secret(webhookSecretFile, environment.get("LIVEGATE_WEBHOOK_SECRET"))
                .orElseThrow(
                    () ->
                        new LivegateException(
                            "livegate serve needs the webhook secret: --webhook-secret-file or LIVEGATE_WEBHOOK_SECRET")));
    Optional<Supplier<String>> token = githubToken(environment, served);
    Optional<SmtpRelay> smtp = local.smtp(livegate.environment());
    try (LocalWiring wiring =
        new LocalWiring(local.stateDirectory(), local.sources::inStateDirectory)) {
      wiring.mailThrough(smtp);
      wiring.drainOnSignals(local.gracePeriod, line -> log(out, line));
      VoteServer server =
          wiring.server(address(listen), local.port, Optional.ofNullable(publicUrl));
      LocalPipeline.Settings settings =
          new LocalPipeline.Settings(
              repoUrl,
              reachable(LocalRun.withLocalVoter(AccountsFiles.read(accountsFile))),
              kind,
              local.failurePolicy,
              local.settings(run.autoApprove),
              LockScope.fromId(lockScope),
              local.port,
              Map.of("TF_IN_AUTOMATION", "1"),
              retryLimit);
      Optional<GitHubClient> github =
          token.map(tokens -> GitHubClient.create(githubApiUrl, tokens));
      CommitStatusPublisher statuses =
          github
              .map(
                  client ->
                      GitHubStatuses.publisher(client, token::orElseThrow, line -> log(out, line)))
              .orElseGet(() -> new LoggedStatuses(line -> log(out, line)));
      try (LocalPipeline pipeline =
              new LocalPipeline(wiring, settings, statuses, token, line -> log(out, line));
          LocalPullRequestPlanner planner =
              new LocalPullRequestPlanner(
                  wiring.state.pullRequests(),
                  new LocalPullRequestPlanner.Settings(
                      repoUrl,
                      token,
                      settings.accounts(),
                      kind,
                      settings.deploy().parallelism(),
                      allowForkPrs,
                      settings.runnerEnvironment(),
                      wiring.sources),
                  pipeline.statuses(),
                  github.map(
                      client ->
                          new PlanComments(new GitHubComments(client), line -> log(out, line))),
                  wiring.sandbox,
                  line -> log(out, line))) {
        server.webhook(
            pipeline.receiver(
                new WebhookSettings(() -> secret, served, trunk, allowForkPrs), planner));
        log(out, wiring.sandbox.description());
        if (publicUrl == null && address(listen).isAnyLocalAddress()) {
          log(
              out,
              "warning: vote links and the webhook URL say "
                  + server.baseUrl()
                  + "; set --public-url to the address voters and GitHub reach");
        }
        pipeline.resume(served);
        log(out, "serving " + served + ": POST " + server.baseUrl() + "/webhook");
        wiring.awaitStopSignal();
      }
    }
    // Stopped by a signal: the running deployment's flows stopped where they are recorded, and the
    // next serve resumes it; that is no failure.
    log(out, "stopped; the next livegate serve resumes what is unfinished");
    return 0;
  }

  /**
   * One message of serve's log: pull request titles and branches are in them ({@link Printable}).
   */
  private static void log(PrintWriter out, String line) {
    synchronized (out) {
      out.println(Printable.continued(line));
      out.flush();
    }
  }

  static String repositoryOf(String url) {
    Matcher matcher = GITHUB_URL.matcher(url);
    if (!matcher.matches()) {
      throw new LivegateException(
          "cannot tell the GitHub repository from "
              + url
              + "; give it with --repository OWNER/NAME");
    }
    return matcher.group(1);
  }

  /**
   * A GitHub App's installation tokens, when its three options are given; else the token from
   * {@code --github-token-file} or LIVEGATE_GITHUB_TOKEN; else none.
   */
  private Optional<Supplier<String>> githubToken(Map<String, String> environment, String served) {
    if (githubApp.given() && githubTokenFile != null) {
      throw new LivegateException(
          "give a GitHub App or --github-token-file, not both: the App's tokens replace the token");
    }
    Optional<GitHubApp> app = githubApp.app();
    if (app.isEmpty()) {
      return secret(githubTokenFile, environment.get("LIVEGATE_GITHUB_TOKEN"))
          .map(value -> () -> value);
    }
    return Optional.of(InstallationTokens.create(app.get(), githubApiUrl, Optional.of(served)));
  }

  private static Optional<String> secret(Path file, String variable) {
    if (file != null) {
      try {
        String text = Files.readString(file).strip();
        if (text.isEmpty()) {
          throw new LivegateException(file + " is empty");
        }
        return Optional.of(text);
      } catch (IOException e) {
        throw new LivegateException("cannot read " + file + ": " + e.getMessage(), e);
      }
    }
    return Optional.ofNullable(variable).filter(value -> !value.isBlank());
  }

  private static InetAddress address(String listen) {
    try {
      return InetAddress.getByName(listen);
    } catch (UnknownHostException e) {
      throw new LivegateException(
          "--listen " + listen + " is not an address: " + e.getMessage(), e);
    }
  }

  /** The accounts, once every account's voters can reach its thresholds. */
  private static Accounts reachable(Accounts accounts) {
    AccountCoverage.requireReachableThresholds(accounts);
    return accounts;
  }
}
