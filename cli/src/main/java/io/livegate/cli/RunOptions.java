package io.livegate.cli;

import io.livegate.core.runner.RunnerArgv;
import picocli.CommandLine.Option;

/** How deploy and resume run units: the tool, and whether votes are cast for the voters. */
final class RunOptions {
  @Option(
      names = "--runner",
      paramLabel = "terraform|terragrunt",
      defaultValue = "terragrunt",
      description = "What plans and applies each unit (default: ${DEFAULT-VALUE}).")
  LocalOptions.Runner runner;

  @Option(
      names = "--auto-approve",
      description = "Approve each unit on the voters' behalf after mailing its vote links.")
  boolean autoApprove;

  RunnerArgv kind() {
    return LocalOptions.kind(runner);
  }
}
