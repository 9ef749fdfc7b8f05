package io.livegate.tests.scenarios;

import io.livegate.cli.example.ExampleRepo;
import io.livegate.cli.local.HttpStateBackend;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import io.livegate.process.ProcessCommandRunner;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Live repositories for the end-to-end suites, with real terraform (terraform_data only). */
public final class LiveRepos {
  /** One account, "apps", over app/, voted on by one voter who decides alone. */
  public static final String APPS_ACCOUNTS =
      """
      account "apps" {
        path           = "app"
        voters         = ["ops@example.com"]
        min_approvals  = 1
        min_rejections = 1
      }
      """;

  /** A resource whose input is the variable size, "small" unless set. */
  private static final String SIZED_RESOURCE =
      "variable \"size\" {\n  default = \"small\"\n}\n\n"
          + "resource \"terraform_data\" \"this\" {\n  input = var.size\n}\n";

  private LiveRepos() {}

  /** The bundled example: the reference scenario's ten units in two accounts. */
  public static LiveRepo reference(Path dir) {
    ExampleRepo.Commits commits = ExampleRepo.create(dir);
    try {
      return new LiveRepo(
          dir,
          commits.base(),
          commits.head(),
          Files.readString(dir.resolve(ExampleRepo.ACCOUNTS_FILE)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Four new units: a; b on a; c on b; d on nobody. */
  public static LiveRepo apps(Path dir) {
    return apps(dir, false);
  }

  /**
   * {@link #apps}, where b's apply fails on a postcondition over a value known only after apply,
   * once it has created its resource. Every unit is new, so every resource is of a newly added
   * provider (the built-in terraform provider, to a unit without state), and the rollback destroys
   * what a, b and d created.
   */
  public static LiveRepo appsWithFailingApply(Path dir) {
    return apps(dir, true);
  }

  /**
   * Two new units: a, with a resource; e on a, with an output and no resource, so its plan has no
   * changes.
   */
  public static LiveRepo withEmptyPlan(Path dir) {
    try (TestRepo repo = TestRepo.create(dir)) {
      repo.write("README.md", "apps\n");
      String base = repo.commit("empty");
      unit(repo, "a", null, "");
      repo.write("app/e/terragrunt.hcl", dependency("a"))
          .write("app/e/main.tf", "output \"greeting\" {\n  value = \"hello\"\n}\n");
      String head = repo.commit("add a and e");
      return new LiveRepo(dir, base, head, APPS_ACCOUNTS);
    }
  }

  /** One new unit, a, in the account {@code accounts} names "apps". */
  public static LiveRepo single(Path dir, String accounts) {
    try (TestRepo repo = TestRepo.create(dir)) {
      repo.write("README.md", "apps\n");
      String base = repo.commit("empty");
      unit(repo, "a", null, "");
      String head = repo.commit("add a");
      return new LiveRepo(dir, base, head, accounts);
    }
  }

  /**
   * A merge that deletes two applied units and adds a third: at the base, a and b (on a, reading
   * a's output) are applied with terraform outside livegate; the head deletes both and adds c. The
   * states are kept beside the repository ({@link #states}) by a remote backend the test serves
   * ({@link HttpStateBackend}), so a checkout of the base commit anywhere finds them, and a
   * sandboxed destroy can write them (the sandbox leaves nothing outside the repository writable).
   */
  public static LiveRepo retired(Path dir) {
    HttpStateBackend states = HttpStateBackend.in(states(dir));
    try (TestRepo repo = TestRepo.create(dir)) {
      repo.write("README.md", "apps\n");
      repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\n");
      repo.commit("empty");
      repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
          .write(
              "app/a/main.tf",
              states.backend("a")
                  + "resource \"terraform_data\" \"this\" {\n  input = \"a\"\n}\n\n"
                  + "output \"id\" {\n  value = terraform_data.this.output\n}\n");
      repo.write("app/b/terragrunt.hcl", dependency("a"))
          .write(
              "app/b/main.tf",
              states.backend("b")
                  + "data \"terraform_remote_state\" \"a\" {\n"
                  + states.remoteStateConfig("a")
                  + "}\n\n"
                  + "resource \"terraform_data\" \"this\" {\n"
                  + "  input = \"b on ${data.terraform_remote_state.a.outputs.id}\"\n}\n");
      String base = repo.commit("a and b");
      for (String unit : List.of("a", "b")) {
        terraform(dir.resolve("app").resolve(unit), "init");
        terraform(dir.resolve("app").resolve(unit), "apply", "-auto-approve");
      }
      repo.delete("app/a");
      repo.delete("app/b");
      unit(repo, "c", null, "");
      String head = repo.commit("retire a and b, add c");
      return new LiveRepo(dir, base, head, APPS_ACCOUNTS);
    }
  }

  /**
   * Two units, a and b, applied with terraform at the base; then a's resource changed out of band
   * (applied with another input, so its state no longer matches the code); the head changes only a
   * comment of b. A drift run at the head finds a alone drifted; a merge of base..head deploys b,
   * whose plan is empty. The states are kept beside the repository ({@link #states}) by a remote
   * backend the test serves ({@link HttpStateBackend}).
   */
  public static LiveRepo drifted(Path dir) {
    HttpStateBackend states = HttpStateBackend.in(states(dir));
    try (TestRepo repo = TestRepo.create(dir)) {
      repo.write(".gitignore", ".terraform/\n.terraform.lock.hcl\n");
      for (String unit : List.of("a", "b")) {
        repo.write("app/" + unit + "/terragrunt.hcl", "inputs = {}\n")
            .write("app/" + unit + "/main.tf", states.backend(unit) + SIZED_RESOURCE);
      }
      String base = repo.commit("a and b");
      for (String unit : List.of("a", "b")) {
        terraform(dir.resolve("app").resolve(unit), "init");
        terraform(dir.resolve("app").resolve(unit), "apply", "-auto-approve");
      }
      terraform(dir.resolve("app/a"), "apply", "-auto-approve", "-var", "size=large");
      repo.write(
          "app/b/main.tf", states.backend("b") + "# b's size is the default\n" + SIZED_RESOURCE);
      String head = repo.commit("a comment in b");
      return new LiveRepo(dir, base, head, APPS_ACCOUNTS);
    }
  }

  /**
   * Where the state files of {@link #retired}'s and {@link #drifted}'s units are kept, one {@code
   * <unit>.tfstate} each: beside {@code dir}.
   */
  public static Path states(Path dir) {
    return dir.resolveSibling(dir.getFileName() + "-states");
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

  private static LiveRepo apps(Path dir, boolean failingApply) {
    try (TestRepo repo = TestRepo.create(dir)) {
      repo.write("README.md", "apps\n");
      String base = repo.commit("empty");
      unit(repo, "a", null, "");
      unit(
          repo,
          "b",
          "a",
          failingApply
              ? """
              lifecycle {
                postcondition {
                  condition     = self.output != "b"
                  error_message = "b refuses its own output"
                }
              }
            """
              : "");
      unit(repo, "c", "b", "");
      unit(repo, "d", null, "");
      String head = repo.commit("add the apps");
      return new LiveRepo(dir, base, head, APPS_ACCOUNTS);
    }
  }

  /**
   * A later merge on top of {@code live}'s head: a new unit {@code name}, on nobody, with a
   * resource. Answers its commit.
   */
  public static String addUnit(LiveRepo live, String name) {
    try (TestRepo repo = TestRepo.create(live.root())) {
      unit(repo, name, null, "");
      return repo.commit("add " + name);
    }
  }

  private static void unit(TestRepo repo, String name, String dependency, String extra) {
    repo.write(
        "app/" + name + "/terragrunt.hcl",
        dependency == null ? "inputs = {}\n" : dependency(dependency));
    repo.write(
        "app/" + name + "/main.tf",
        "resource \"terraform_data\" \"this\" {\n  input = \"" + name + "\"\n" + extra + "}\n");
  }

  private static String dependency(String unit) {
    return "dependency \"" + unit + "\" {\n  config_path = \"../" + unit + "\"\n}\n";
  }
}
