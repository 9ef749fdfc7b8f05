package io.livegate.cli;

import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A live repository of two units, app/a and app/b, deployed with real terraform into a state
 * directory, after which app/a's resource was changed out of band (terraform outside livegate):
 * what the drift suites start from.
 *
 * @param repo the repository, for a suite to commit more to
 * @param state the deploy's state directory
 * @param deployed the deploy's run
 */
public record DriftedRepo(TestRepo repo, Path state, CliRun deployed) {
  /** Writes, commits and deploys the two units under {@code dir}, then changes app/a. */
  public static DriftedRepo deployThenChangeAOutOfBand(Path dir) {
    TestRepo repo = TestRepo.create(dir.resolve("live"));
    repo.write("README.md", "apps\n");
    repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\nterraform.tfstate*\n");
    repo.commit("empty");
    for (String unit : List.of("a", "b")) {
      repo.write("app/" + unit + "/terragrunt.hcl", "inputs = {}\n")
          .write(
              "app/" + unit + "/main.tf",
              "variable \"size\" {\n  default = \"small\"\n}\n\n"
                  + "resource \"terraform_data\" \"this\" {\n  input = var.size\n}\n");
    }
    repo.commit("a and b");
    Path state = dir.resolve("state");
    CliRun deployed = CliRun.autoApprovedDeploy(repo.root(), state);
    terraform(repo.root().resolve("app/a"), "apply", "-auto-approve", "-var", "size=large");
    return new DriftedRepo(repo, state, deployed);
  }

  /** {@code livegate drift} of the repository with the terraform runner, then {@code options}. */
  public CliRun drift(String... options) {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "drift",
                "--repo",
                repo.root().toString(),
                "--runner",
                "terraform",
                "--parallelism",
                "2"));
    argv.addAll(List.of(options));
    return CliRun.withPath(argv.toArray(String[]::new));
  }

  private static void terraform(Path unit, String... arguments) {
    List<String> argv = new ArrayList<>(List.of("terraform", "-chdir=" + unit));
    argv.addAll(List.of(arguments));
    argv.addAll(List.of("-input=false", "-no-color"));
    CommandResult result =
        new ProcessCommandRunner().run(new Command(argv, unit, Map.of(), Duration.ofMinutes(2)));
    if (result.exitCode() != 0) {
      throw new IllegalStateException(String.join(" ", argv) + ":\n" + result.output());
    }
  }
}
