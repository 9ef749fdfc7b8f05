package io.livegate.cli;

import io.livegate.cli.local.LocalDeployer;
import io.livegate.cli.local.SmtpRelay;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.runner.RunnerArgv;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every local-runtime command shares. */
final class LocalOptions {
  enum Runner {
    terraform,
    terragrunt
  }

  enum Policy {
    abort_dependents,
    abort_all
  }

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "Where the metadb, plans, outbox and vote secret live (default: ~/.livegate).")
  Path stateDir;

  @Mixin SourceOptions sources;

  @Option(
      names = "--port",
      paramLabel = "N",
      defaultValue = "8741",
      description =
          "Port of the vote and status pages on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description = "Units planned or applied at once (default: the number of cores).")
  Integer parallelism;

  @Option(
      names = "--skip-empty",
      description =
          "A plan with no changes succeeds without a vote or an apply. Without it, every plan is voted on, so that voters see every unit the merge touched.")
  boolean skipEmpty;

  @Option(
      names = "--failure-policy",
      paramLabel = "abort-dependents|abort-all",
      defaultValue = "abort-dependents",
      converter = PolicyConverter.class,
      description = "What a failed or rejected unit aborts (default: ${DEFAULT-VALUE}).")
  FailurePolicy failurePolicy;

  @Option(
      names = "--vote-timeout",
      paramLabel = "DURATION",
      defaultValue = "24h",
      converter = Durations.class,
      description =
          "How long a vote may take before the unit counts as rejected: 90s, 15m, 1h, 3d (default: ${DEFAULT-VALUE}).")
  Duration voteTimeout;

  @Option(
      names = "--grace-period",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = Durations.class,
      description =
          "After Ctrl-C or SIGTERM, how long running terraform processes may finish before they are"
              + " interrupted: 90s, 15m, 1h (default: ${DEFAULT-VALUE}). A second Ctrl-C interrupts them at once.")
  Duration gracePeriod;

  @Option(
      names = "--smtp-url",
      paramLabel = "URL",
      description =
          "Also send each vote request through this SMTP server, not only to the outbox:"
              + " smtp://HOST[:PORT] (STARTTLS when offered; ?starttls=required insists) or"
              + " smtps://HOST[:PORT]. A user and password come from LIVEGATE_SMTP_USERNAME and"
              + " LIVEGATE_SMTP_PASSWORD.")
  String smtpUrl;

  @Option(
      names = "--smtp-from",
      paramLabel = "ADDRESS",
      defaultValue = "livegate@localhost",
      description = "The sender of the vote requests (default: ${DEFAULT-VALUE}).")
  String smtpFrom;

  /** The SMTP relay that {@code --smtp-url} names, with the credentials in {@code environment}. */
  Optional<SmtpRelay> smtp(Map<String, String> environment) {
    return Optional.ofNullable(smtpUrl).map(url -> SmtpRelay.of(url, smtpFrom, environment));
  }

  Path stateDirectory() {
    return stateDir != null ? stateDir : defaultStateDirectory();
  }

  /** The state directory of a command that names none. */
  static Path defaultStateDirectory() {
    return Path.of(System.getProperty("user.home"), ".livegate");
  }

  /** The settings of a run whose log shows no voter's links (serve). */
  LocalDeployer.Settings settings(boolean autoApprove) {
    return settings(autoApprove, voter -> false);
  }

  /**
   * @param voterAtTerminal the voters for whom this terminal is their channel: their links are
   *     printed
   */
  LocalDeployer.Settings settings(boolean autoApprove, Predicate<String> voterAtTerminal) {
    return new LocalDeployer.Settings(
        parallelism == null ? Runtime.getRuntime().availableProcessors() : parallelism,
        autoApprove,
        skipEmpty,
        voteTimeout,
        voterAtTerminal);
  }

  static RunnerArgv kind(Runner runner) {
    return runner == Runner.terraform ? RunnerArgv.TERRAFORM : RunnerArgv.TERRAGRUNT;
  }

  static final class PolicyConverter implements picocli.CommandLine.ITypeConverter<FailurePolicy> {
    @Override
    public FailurePolicy convert(String value) {
      return switch (value) {
        case "abort-dependents" -> FailurePolicy.ABORT_DEPENDENTS;
        case "abort-all" -> FailurePolicy.ABORT_ALL;
        default ->
            throw new picocli.CommandLine.TypeConversionException(
                "expected abort-dependents or abort-all, not '" + value + "'");
      };
    }
  }
}
