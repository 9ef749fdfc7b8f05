package io.livegate.cli.local;

import io.livegate.cli.example.ExampleRepo;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** Small live repositories with real terraform for the end-to-end tests of the local runtime. */
final class LiveRepos {
  static final String DEV = "dev-account/";
  static final String DEV_GLOBAL = DEV + "global";
  static final String DEV_APPS = DEV + "us-west-2/env-one/";
  static final String DEV_BAZ = DEV_APPS + "baz";
  static final String DEV_DOO = DEV_APPS + "doo";
  static final String DEV_BAR = DEV_APPS + "bar";
  static final String DEV_FOO = DEV_APPS + "foo";

  private static final String EXAMPLE = "/io/livegate/cli/example/";

  private LiveRepos() {}

  /** The voter of {@link #devAccountFile}. */
  static final String DEV_VOTER = "lead@example.com";

  /**
   * An accounts file in {@code dir} with the dev account alone, which {@link #DEV_VOTER} decides
   * with one approval or one rejection.
   */
  static Path devAccountFile(Path dir) throws IOException {
    return Files.writeString(
        dir.resolve("livegate.hcl"),
        "account \"dev\" {\n  path = \"dev-account\"\n  voters = [\""
            + DEV_VOTER
            + "\"]\n  min_approvals = 1\n  min_rejections = 1\n}\n");
  }

  /**
   * The example's dev account alone, as one account: its base commit, then a head commit that bumps
   * dev-account/global to v2. The merge deploys global, then baz and doo, then bar, then foo: five
   * units, none applied before.
   */
  static TestRepo devAccountChange(Path dir) {
    TestRepo repo = TestRepo.create(dir);
    for (String file : example("files.txt").split("\n")) {
      if (file.startsWith(DEV) || file.equals("root.hcl") || file.startsWith("_envcommon/")) {
        repo.write(file, example("base/" + file));
      }
    }
    repo.write(".gitignore", example("base/dot-gitignore"));
    repo.commit("dev account at v1");
    repo.write(DEV_GLOBAL + "/main.tf", example("change/" + DEV_GLOBAL + "/main.tf"));
    repo.commit("dev network v2");
    return repo;
  }

  /**
   * Four units whose merge adds them all: {@code app/a}; {@code app/b} and {@code app/d}, which
   * read a's output; and {@code app/c}, which depends on b. b plans fine, but its apply fails on a
   * postcondition over a value known only after apply, once it has created its resource.
   */
  static TestRepo failingApply(Path dir) {
    TestRepo repo = TestRepo.create(dir);
    repo.write("README.md", "apps\n");
    repo.commit("empty");
    repo.write("app/a/terragrunt.hcl", "inputs = {}\n")
        .write(
            "app/a/main.tf",
            """
            resource "terraform_data" "a" {
              input = "a-1"
            }

            output "id" {
              value = terraform_data.a.output
            }
            """);
    repo.write("app/b/terragrunt.hcl", dependency("a"))
        .write(
            "app/b/main.tf",
            remoteState("a")
                + """
                resource "terraform_data" "b" {
                  input = "b after ${data.terraform_remote_state.a.outputs.id}"

                  lifecycle {
                    postcondition {
                      condition     = !startswith(self.output, "b after")
                      error_message = "b refuses the output it was given"
                    }
                  }
                }

                output "id" {
                  value = terraform_data.b.output
                }
                """);
    repo.write("app/c/terragrunt.hcl", dependency("b"))
        .write(
            "app/c/main.tf",
            remoteState("b")
                + """
                resource "terraform_data" "c" {
                  input = "c after ${data.terraform_remote_state.b.outputs.id}"
                }
                """);
    repo.write("app/d/terragrunt.hcl", dependency("a"))
        .write(
            "app/d/main.tf",
            remoteState("a")
                + """
                resource "terraform_data" "d" {
                  input = "d after ${data.terraform_remote_state.a.outputs.id}"
                }
                """);
    repo.write(".gitignore", example("base/dot-gitignore"));
    repo.commit("add the apps");
    return repo;
  }

  /**
   * Writes {@code unit} as one {@code terraform_data} at {@code version} whose provisioner, the
   * oracle, appends "UNIT VERSION" to {@code oracle} ({@link Oracle}) each time an apply creates
   * it: every apply of the unit at a new version replaces the resource and logs one line.
   */
  static void oracleUnit(TestRepo repo, String unit, String version, Path oracle) {
    provisionedUnit(repo, unit, version, "sleep 1; " + Oracle.append(oracle, unit + " " + version));
  }

  /**
   * Writes {@code unit} as one {@code terraform_data} at {@code version} whose create provisioner
   * runs {@code command} (a shell line without double quotes); a new version replaces the resource.
   */
  static void provisionedUnit(TestRepo repo, String unit, String version, String command) {
    repo.write(unit + "/terragrunt.hcl", "inputs = {}\n")
        .write(
            unit + "/main.tf",
            "resource \"terraform_data\" \"unit\" {\n"
                + "  triggers_replace = \""
                + version
                + "\"\n"
                + "  provisioner \"local-exec\" {\n"
                + "    command = \""
                + command
                + "\"\n"
                + "  }\n"
                + "}\n");
  }

  /** How many times the oracle logged each "UNIT VERSION"; empty before any apply. */
  static Map<String, Integer> oracleApplies(Path oracle) {
    Map<String, Integer> applies = new TreeMap<>();
    try {
      if (Files.exists(oracle)) {
        Files.readAllLines(oracle).forEach(line -> applies.merge(line.strip(), 1, Integer::sum));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return applies;
  }

  private static String dependency(String unit) {
    return "dependency \"" + unit + "\" {\n  config_path = \"../" + unit + "\"\n}\n";
  }

  private static String remoteState(String unit) {
    return "data \"terraform_remote_state\" \""
        + unit
        + "\" {\n  backend = \"local\"\n  config = {\n    path = \"../"
        + unit
        + "/terraform.tfstate\"\n  }\n}\n\n";
  }

  private static String example(String name) {
    try (InputStream in = ExampleRepo.class.getResourceAsStream(EXAMPLE + name)) {
      if (in == null) {
        throw new IllegalStateException("no example resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
