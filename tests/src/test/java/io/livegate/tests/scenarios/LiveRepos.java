package io.livegate.tests.scenarios;

import io.livegate.cli.example.ExampleRepo;
import io.livegate.core.scan.testing.TestRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
