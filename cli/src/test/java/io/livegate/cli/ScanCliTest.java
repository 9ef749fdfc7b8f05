package io.livegate.cli;

import static io.livegate.scan.testing.ReferenceScenario.DEV;
import static io.livegate.scan.testing.ReferenceScenario.SHARED;
import static io.livegate.scan.testing.ReferenceScenario.unit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.scan.testing.ReferenceScenario;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScanCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Set -Dlivegate.updateGolden=true to rewrite the golden files from the current output. */
  private static final boolean UPDATE_GOLDEN = Boolean.getBoolean("livegate.updateGolden");

  private static final String ACCOUNTS =
      """
      account "shared_services" {
        path = "shared-services-account"
      }

      account "dev" {
        path       = "dev-account"
        depends_on = ["shared_services"]
      }
      """;

  @TempDir Path dir;
  private Path live;
  private Path accounts;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() throws IOException {
    live = dir.resolve("live");
    repo = ReferenceScenario.write(TestRepo.create(live));
    base = repo.commit("reference scenario");
    accounts = Files.writeString(dir.resolve("accounts.hcl"), ACCOUNTS);
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private CliRun scan(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("scan", "--repo", live.toString(), "--accounts", accounts.toString(), "-q"));
    args.addAll(List.of(options));
    return CliRun.of(args.toArray(String[]::new));
  }

  private static String shortSha(String sha) {
    return sha.substring(0, 12);
  }

  @Test
  void textOutputListsEachLayerWithItsUnitsAndWhyTheyAreThere() {
    repo.touch(unit(DEV, "baz") + "/main.tf");
    String head = repo.commit("change dev baz");

    CliRun run = scan("--base", base, "--head", "HEAD");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out())
        .isEqualTo(
            "graph scan of "
                + shortSha(base)
                + ".."
                + shortSha(head)
                + ": 3 units in 3 layers\n"
                + "\n"
                + "layer 0\n"
                + "  dev-account/us-west-2/env-one/baz  [dev]\n"
                + "      changed file dev-account/us-west-2/env-one/baz/main.tf\n"
                + "\n"
                + "layer 1\n"
                + "  dev-account/us-west-2/env-one/bar  [dev]\n"
                + "      depends on dev-account/us-west-2/env-one/baz\n"
                + "\n"
                + "layer 2\n"
                + "  dev-account/us-west-2/env-one/foo  [dev]\n"
                + "      depends on dev-account/us-west-2/env-one/bar\n");
  }

  @Test
  void progressGoesToStderrAndTheStackAloneToStdout() {
    repo.touch(unit(DEV, "foo") + "/terragrunt.hcl");
    repo.commit("change dev foo");

    CliRun run =
        CliRun.of(
            "scan",
            "--repo",
            live.toString(),
            "--accounts",
            accounts.toString(),
            "--base",
            "HEAD~1");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).contains("livegate: found 10 units\n");
    assertThat(run.out()).startsWith("graph scan of ").doesNotContain("livegate: ");
  }

  @Test
  void jsonOutputIsTheDeployStackContract() throws IOException {
    repo.touch(SHARED + "/global/main.tf");
    repo.delete(unit(DEV, "doo"));
    String head = repo.commit("change shared global, remove dev doo");

    CliRun run = scan("--base", "HEAD~1", "--format", "json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode stack = JSON.readTree(run.out());
    assertThat(stack.get("schemaVersion").asInt()).isEqualTo(1);
    assertThat(stack.get("scan").asText()).isEqualTo("graph");
    assertThat(stack.get("base").asText()).isEqualTo(base);
    assertThat(stack.get("head").asText()).isEqualTo(head);
    JsonNode executions = stack.get("executions");
    assertThat(executions).hasSize(5);
    for (JsonNode execution : executions) {
      assertThat(execution.get("unit").isTextual()).isTrue();
      assertThat(execution.get("unit").asText())
          .doesNotStartWith("./")
          .doesNotStartWith("/")
          .doesNotEndWith("/");
      assertThat(execution.get("account").asText()).isEqualTo("shared_services");
      assertThat(execution.get("dependsOn").isArray()).isTrue();
      assertThat(execution.get("layer").isInt()).isTrue();
      assertThat(execution.get("reasons").isArray()).isTrue();
      assertThat(execution.get("reasons")).isNotEmpty();
      for (JsonNode dependency : execution.get("dependsOn")) {
        assertThat(dependency.asText()).doesNotStartWith("./").doesNotEndWith("/");
      }
    }
    JsonNode bar = executions.get(3);
    assertThat(bar.get("unit").asText()).isEqualTo(unit(SHARED, "bar"));
    assertThat(bar.get("layer").asInt()).isEqualTo(2);
    assertThat(texts(bar.get("dependsOn")))
        .containsExactly(unit(SHARED, "global"), unit(SHARED, "baz"));
    assertThat(bar.get("reasons").get(0).get("kind").asText()).isEqualTo("depends-on");
    JsonNode global = executions.get(0);
    assertThat(global.get("unit").asText()).isEqualTo(SHARED + "/global");
    assertThat(global.get("reasons").get(0).get("kind").asText()).isEqualTo("changed-file");
    assertThat(global.get("reasons").get(0).get("path").asText())
        .isEqualTo(SHARED + "/global/main.tf");
    JsonNode deleted = stack.get("deleted");
    assertThat(deleted).hasSize(1);
    assertThat(deleted.get(0).get("unit").asText()).isEqualTo(unit(DEV, "doo"));
    assertThat(deleted.get(0).get("account").asText()).isEqualTo("dev");
    assertThat(deleted.get(0).get("reasons").get(0).get("kind").asText()).isEqualTo("deleted-file");
    assertThat(stack.get("warnings")).isEmpty();
  }

  @Test
  void jsonOutputMatchesTheGoldenFile() throws IOException {
    repo.touch(unit(SHARED, "baz") + "/main.tf");
    repo.touch(DEV + "/global/terragrunt.hcl");
    repo.delete(unit(DEV, "doo"));
    String head = repo.commit("golden scenario");

    CliRun run = scan("--base", base, "--head", head, "--format", "json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    String actual = run.out().replace(base, "<base>").replace(head, "<head>");
    assertThat(actual).isEqualTo(golden("golden/scan-reference-graph.json", actual));
  }

  @Test
  void allListsEveryUnit() throws IOException {
    CliRun run = scan("--all", "--format", "json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode stack = JSON.readTree(run.out());
    assertThat(stack.get("base").isNull()).isTrue();
    List<String> units = new ArrayList<>();
    for (JsonNode execution : stack.get("executions")) {
      units.add(execution.get("unit").asText());
      assertThat(execution.get("reasons").get(0).get("kind").asText()).isEqualTo("all-units");
    }
    List<String> expected = new ArrayList<>();
    for (String account : List.of(SHARED, DEV)) {
      for (String name : List.of("global", "baz", "doo", "bar", "foo")) {
        expected.add(unit(account, name));
      }
    }
    assertThat(units).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(stack.get("executions").get(9).get("layer").asInt()).isEqualTo(7);

    CliRun text = scan("--all");
    assertThat(text.out()).startsWith("graph scan of all units at ").contains("10 units");
    expected.forEach(unit -> assertThat(text.out()).contains("  " + unit + "  ["));
  }

  @Test
  void dotOutputHasAnEdgeFromEachUnitToWhatItDependsOn() {
    CliRun run = scan("--all", "--format", "dot");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).startsWith("digraph livegate {").endsWith("}\n");
    for (String account : List.of(SHARED, DEV)) {
      for (List<String> edge : referenceEdges()) {
        assertThat(run.out())
            .contains(
                "  \""
                    + unit(account, edge.get(0))
                    + "\" -> \""
                    + unit(account, edge.get(1))
                    + "\";\n");
      }
    }
    assertThat(run.out().split(" -> ", -1)).hasSize(11);
  }

  @Test
  void mermaidOutputHasAnEdgeFromEachUnitToWhatItDependsOn() {
    CliRun run = scan("--all", "--format", "mermaid");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).startsWith("flowchart LR\n");
    Map<String, String> ids = mermaidIds(run.out());
    assertThat(ids).hasSize(10);
    for (String account : List.of(SHARED, DEV)) {
      for (List<String> edge : referenceEdges()) {
        assertThat(run.out())
            .contains(
                "  "
                    + ids.get(unit(account, edge.get(0)))
                    + " --> "
                    + ids.get(unit(account, edge.get(1)))
                    + "\n");
      }
    }
    assertThat(run.out().split(" --> ", -1)).hasSize(11);
  }

  @Test
  void graphFormatsEscapeAUnitIdWithADoubleQuote() throws IOException {
    Path odd = dir.resolve("odd");
    String quoted = "app/we\"ird";
    try (TestRepo oddRepo = TestRepo.create(odd)) {
      oddRepo.write("app/base/terragrunt.hcl", "");
      oddRepo.write(quoted + "/terragrunt.hcl", ReferenceScenario.dependency("base", "../base"));
      oddRepo.commit("a unit with a quote in its name");
    }

    CliRun dot = CliRun.of("scan", "--repo", odd.toString(), "--all", "--format", "dot", "-q");
    CliRun mermaid =
        CliRun.of("scan", "--repo", odd.toString(), "--all", "--format", "mermaid", "-q");
    CliRun json = CliRun.of("scan", "--repo", odd.toString(), "--all", "--format", "json", "-q");

    assertThat(dot.exitCode()).as(dot.toString()).isZero();
    assertThat(dot.out()).contains("  \"app/we\\\"ird\" -> \"app/base\";\n");
    assertThat(dot.out()).contains("    \"app/we\\\"ird\" [label=\"app/we\\\"ird\\nlayer 1\"");
    assertThat(dot.out()).doesNotContain("we\"ird");
    assertThat(mermaid.exitCode()).as(mermaid.toString()).isZero();
    assertThat(mermaid.out()).contains("[\"app/we#34;ird<br/>layer 1\"]").doesNotContain("we\"");
    Map<String, String> ids = mermaidIds(mermaid.out().replace("#34;", "\""));
    assertThat(mermaid.out()).contains("  " + ids.get(quoted) + " --> " + ids.get("app/base"));
    assertThat(JSON.readTree(json.out()).get("executions").get(1).get("unit").asText())
        .isEqualTo(quoted);
  }

  @Test
  void anUnknownRevisionIsOneLineOfError() {
    CliRun run = scan("--base", "no-such-branch");

    assertOneLineError(run, "livegate: unknown revision 'no-such-branch'");
  }

  @Test
  void aMissingBaseWithoutAllIsOneLineOfError() {
    CliRun run = scan();

    assertOneLineError(run, "livegate: a base revision is required unless all units are scanned");
  }

  @Test
  void aDirectoryThatIsNoRepositoryIsOneLineOfError() throws IOException {
    Path plain = Files.createDirectories(dir.resolve("plain"));

    CliRun run = CliRun.of("scan", "--repo", plain.toString(), "--all", "-q");

    assertOneLineError(run, "livegate: " + plain + " is not a git repository");
  }

  @Test
  void aBrokenAccountsFileIsOneLineOfErrorNamingTheFile() throws IOException {
    Files.writeString(accounts, "account \"dev\" {\n  path = \n}\n");

    CliRun run = scan("--all");

    assertOneLineError(run, "livegate: " + accounts);
  }

  @Test
  void anAccountsFileWithAnUnknownDependencyIsOneLineOfErrorNamingTheAccount() throws IOException {
    Files.writeString(
        accounts,
        "account \"dev\" {\n  path       = \"dev-account\"\n  depends_on = [\"ops\"]\n}\n");

    CliRun run = scan("--all");

    assertOneLineError(
        run,
        "livegate: " + accounts + ": account \"dev\" depends on \"ops\", which is not an account");
  }

  @Test
  void aMissingAccountsFileIsOneLineOfError() {
    accounts = dir.resolve("no-such-accounts.hcl");

    CliRun run = scan("--all");

    assertOneLineError(
        run,
        "livegate: the accounts file "
            + accounts
            + " was not found (looked in "
            + accounts.toAbsolutePath()
            + ")");
  }

  @Test
  void aDependencyCycleIsOneErrorLineFollowedByWhereEachStepIsDeclared() {
    repo.write(
        unit(DEV, "global") + "/terragrunt.hcl",
        ReferenceScenario.dependency("foo", "../us-west-2/env-one/foo"));
    repo.commit("global depends on foo, which depends on global through bar");

    CliRun run = scan("--base", "HEAD~1");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(run.out()).isEmpty();
    List<String> lines = run.errLines();
    assertThat(lines.get(0)).startsWith("livegate: dependency cycle: ").contains(unit(DEV, "foo"));
    assertThat(lines.subList(1, lines.size()))
        .isNotEmpty()
        .allSatisfy(line -> assertThat(line).startsWith("  ").contains("terragrunt.hcl"));
    assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void anInvalidFilePatternIsOneLineOfError() {
    CliRun run = scan("--base", "HEAD", "--file-pattern", "(unclosed");

    assertOneLineError(run, "livegate: --file-pattern is not a valid regular expression: ");
  }

  @Test
  void parallelismBelowOneIsOneLineOfError() {
    CliRun run = scan("--all", "--parallelism", "0");

    assertOneLineError(run, "livegate: parallelism must be at least 1, not 0");
  }

  @Test
  void usageErrorsExitTwoWithOneErrorAndWhereToReadMore() {
    List<String[]> usageErrors =
        List.of(
            new String[] {"scan", "--bogus"},
            new String[] {"scan", "--all", "--format", "xml"},
            new String[] {"scan", "--all", "--scan", "guess"},
            new String[] {"scan", "--all", "--runner", "tofu"},
            new String[] {"scan", "--all", "--parallelism", "many"},
            new String[] {"scan", "--base"});
    for (String[] args : usageErrors) {
      CliRun run = CliRun.of(args);

      assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.errLines()).as(run.toString()).hasSize(2);
      assertThat(run.errLines().get(0)).startsWith("livegate scan: ");
      assertThat(run.errLines().get(1))
          .isEqualTo("Run 'livegate scan --help' for its options and examples.");
    }
  }

  @Test
  void anUnknownCommandExitsTwoWithASuggestion() {
    CliRun run = CliRun.of("scna");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("Unmatched argument").contains("scan");
  }

  /** The reference scenario's edges inside one account: dependent, dependency. */
  private static List<List<String>> referenceEdges() {
    return List.of(
        List.of("baz", "global"),
        List.of("doo", "global"),
        List.of("bar", "baz"),
        List.of("bar", "global"),
        List.of("foo", "bar"));
  }

  /** Each unit's node id, from lines like {@code u3["a/b<br/>layer 2"]:::changed}. */
  private static Map<String, String> mermaidIds(String mermaid) {
    Map<String, String> ids = new HashMap<>();
    Matcher node = Pattern.compile("(?m)^ {4}(u\\d+)\\[\"(.*)<br/>layer \\d+\"]").matcher(mermaid);
    while (node.find()) {
      ids.put(node.group(2), node.group(1));
    }
    return ids;
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private static void assertOneLineError(CliRun run, String start) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(run.out()).as(run.toString()).isEmpty();
    assertThat(run.errLines()).as(run.toString()).hasSize(1);
    assertThat(run.errLines().get(0)).startsWith(start);
  }

  /** The golden text at {@code resource}; with -Dlivegate.updateGolden=true, rewritten first. */
  private static String golden(String resource, String actual) throws IOException {
    if (UPDATE_GOLDEN) {
      Path source = Path.of("src/test/resources").resolve(resource);
      Files.createDirectories(source.getParent());
      Files.writeString(source, actual, StandardCharsets.UTF_8);
      return actual;
    }
    try (InputStream stream = ScanCliTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(stream)
          .as("golden file %s (create it with -Dlivegate.updateGolden=true)", resource)
          .isNotNull();
      return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aFileStackSourceIsRefusedWithoutAllowLocalSourcesFetchedWithItAndUnreachableNamesTheUnit()
      throws Exception {
    Path remote = dir.resolve("catalog.git");
    try (TestRepo catalog = TestRepo.create(dir.resolve("catalog"))) {
      catalog.write("units/app/terragrunt.hcl", "inputs = {\n  name = values.name\n}\n");
      catalog.commit("catalog");
      try (Git git = Git.open(catalog.root().toFile())) {
        git.tag().setName("v1").call();
        Git.init().setBare(true).setDirectory(remote.toFile()).call().close();
        git.push().setRemote(remote.toUri().toString()).setPushAll().setPushTags().call();
      }
    }
    String url = "file://" + remote;
    repo.write(
        "dev-account/stacks/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"git::"
            + url
            + "//units/app?ref=v1\"\n  path   = \"app\"\n  values = {\n    name = \"app\"\n  }\n}\n");
    String head = repo.commit("an app from the remote catalog");
    Path cache = dir.resolve("source-cache");

    CliRun refused = scan("--all", "--head", head, "--source-cache", cache.toString());
    CliRun fetched =
        scan("--all", "--head", head, "--source-cache", cache.toString(), "--allow-local-sources");
    Files.walk(remote).sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    CliRun unreachable =
        scan("--all", "--head", head, "--source-cache", cache.toString(), "--allow-local-sources");

    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(refused.err())
        .as("a repository elsewhere on this machine is fetched only when the operator allows it")
        .contains(
            "dev-account/stacks/terragrunt.stack.hcl:1: unit \"app\""
                + " (dev-account/stacks/.terragrunt-stack/app): cannot fetch its source "
                + url
                + "//units/app?ref=v1: a file:// source is a repository of this machine outside"
                + " the one being deployed; livegate fetches it only when the operator passes"
                + " --allow-local-sources");
    assertThat(fetched.exitCode()).as(fetched.toString()).isZero();
    assertThat(fetched.out()).contains("dev-account/stacks/.terragrunt-stack/app");
    try (Stream<Path> entries = Files.list(cache)) {
      assertThat(entries.filter(Files::isDirectory)).hasSize(1);
    }
    assertThat(unreachable.exitCode()).as(unreachable.toString()).isEqualTo(Livegate.EXIT_FAILURE);
    assertThat(unreachable.err())
        .contains(
            "dev-account/stacks/terragrunt.stack.hcl:1: unit \"app\""
                + " (dev-account/stacks/.terragrunt-stack/app): cannot fetch its source "
                + url
                + "//units/app?ref=v1: ");
  }

  @Test
  void unitThatCannotBeResolvedFailsTheScanUnlessPartialScansAreAllowedThenItIsAWarning() {
    repo.write(
        unit(DEV, "baz") + "/terragrunt.hcl",
        "dependency \"vpc\" {\n  config_path = get_env(\"VPC_DIR\")\n}\n");
    String head = repo.commit("baz depends on a path from the environment");

    CliRun strict = scan("--base", base, "--head", head);
    CliRun partial = scan("--base", base, "--head", head, "--allow-partial");

    assertThat(strict.exitCode()).as(strict.toString()).isNotZero();
    assertThat(strict.err())
        .contains(
            unit(DEV, "baz")
                + "/terragrunt.hcl:2: dependency \"vpc\": the path cannot be worked out");
    assertThat(partial.exitCode()).as(partial.toString()).isZero();
    assertThat(partial.out())
        .contains(
            "\nwarnings\n  --allow-partial: "
                + unit(DEV, "baz")
                + "/terragrunt.hcl:2: dependency \"vpc\": the path cannot be worked out");
    assertThat(partial.out()).contains("  " + unit(DEV, "baz") + "  [dev]\n");
  }

  @Test
  void textOutputSaysWhichUnitsTheirConfigsLeaveOutAndWhy() {
    repo.write(
        unit(DEV, "baz") + "/terragrunt.hcl",
        "exclude {\n  if      = true\n  actions = [\"all\"]\n}\n");
    String head = repo.commit("exclude baz");

    CliRun run = scan("--base", base, "--head", head);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains(
            "\nleft out by their configs\n  "
                + unit(DEV, "baz")
                + "  [dev]  exclude { actions = [\"all\"] } at "
                + unit(DEV, "baz")
                + "/terragrunt.hcl:1\n");
  }

  @Test
  void scanAppliesTheSkipRulesOfTheTerragruntOnPathOrOfTheReleaseGiven() throws IOException {
    repo.write(unit(DEV, "baz") + "/terragrunt.hcl", "skip = true\n");
    String head = repo.commit("skip baz the older way");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path terragrunt =
        Files.writeString(
            bin.resolve("terragrunt"), "#!/bin/sh\necho 'terragrunt version v0.67.1'\n");
    terragrunt.toFile().setExecutable(true);
    List<String> args =
        List.of(
            "scan",
            "--repo",
            live.toString(),
            "--accounts",
            accounts.toString(),
            "--base",
            base,
            "--head",
            head);

    CliRun onPath =
        CliRun.inEnvironment(Map.of("PATH", bin.toString()), args.toArray(String[]::new));
    List<String> pinned = new ArrayList<>(args);
    pinned.addAll(List.of("--terragrunt-version", "0.93.0"));
    CliRun given = CliRun.of(pinned.toArray(String[]::new));
    CliRun byDefault = CliRun.of(args.toArray(String[]::new));

    assertThat(onPath.exitCode()).as(onPath.toString()).isZero();
    assertThat(onPath.err()).contains("scanning with terragrunt 0.67.1's rules (" + terragrunt);
    assertThat(onPath.out())
        .contains(
            "\nleft out by their configs\n  "
                + unit(DEV, "baz")
                + "  [dev]  skip = true at "
                + unit(DEV, "baz")
                + "/terragrunt.hcl:1\n");
    for (CliRun rejected : List.of(given, byDefault)) {
      assertThat(rejected.exitCode()).as(rejected.toString()).isNotZero();
      assertThat(rejected.err())
          .contains(
              unit(DEV, "baz") + "/terragrunt.hcl:1: 'skip' was removed in terragrunt 0.93.0");
    }
    assertThat(byDefault.err())
        .contains("scanning with terragrunt 1.1.3's rules (no terragrunt on PATH");
  }
}
