package io.livegate.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** One run of {@code livegate} through {@link Livegate#execute}, with what it printed. */
public record CliRun(int exitCode, String out, String err) {
  /** Runs with an empty environment: nothing on PATH, no variables for HCL to read. */
  public static CliRun of(String... args) {
    return inEnvironment(Map.of(), args);
  }

  /** Runs with this JVM's environment, so that terraform is found on PATH. */
  public static CliRun withPath(String... args) {
    return inEnvironment(System.getenv(), args);
  }

  /**
   * {@code livegate deploy} of {@code repo}'s last commit with the terraform runner, approved
   * without votes, with its state in {@code stateDirectory} and any {@code more} options.
   */
  public static CliRun autoApprovedDeploy(Path repo, Path stateDirectory, String... more) {
    List<String> args = new ArrayList<>(List.of("--auto-approve", "--port", "0"));
    args.addAll(List.of(more));
    return withPath(deployArguments(repo, stateDirectory, args.toArray(String[]::new)));
  }

  /**
   * The arguments of {@code livegate deploy} of {@code repo}'s last commit with the terraform
   * runner and its state in {@code stateDirectory}, then {@code more}.
   */
  public static String[] deployArguments(Path repo, Path stateDirectory, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "deploy",
                "--repo",
                repo.toString(),
                "--base",
                "HEAD~1",
                "--runner",
                "terraform",
                "--state-dir",
                stateDirectory.toString()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  /** Runs with exactly {@code environment}. */
  public static CliRun inEnvironment(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        Livegate.execute(environment, new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new CliRun(exitCode, out.toString(), err.toString());
  }

  public List<String> errLines() {
    return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
