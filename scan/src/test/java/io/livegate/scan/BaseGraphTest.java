package io.livegate.scan;

import static io.livegate.scan.testing.ReferenceScenario.dependency;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.FileChange;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.terragrunt.TerragruntVersion;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base graph of a base..head scan takes unchanged units' configs from the head graph and reads
 * again only those that the change can have touched; it must equal the base read in full.
 */
class BaseGraphTest {
  @TempDir Path dir;
  private TestRepo repo;
  private String base;
  private String head;

  /**
   * Between the commits: an included file changes, a file a fileset() matched is deleted, a file
   * that file() read is deleted, a unit's own config changes, a unit is deleted, and a dependency
   * named by its config file's path becomes a unit.
   */
  @BeforeEach
  void createCommits() {
    repo = TestRepo.create(dir);
    repo.write("_common/root.hcl", "locals {\n  vpc = \"../vpc\"\n}\n");
    repo.unit("dev/vpc", "");
    repo.unit("dev/db", "");
    repo.unit(
        "dev/included",
        "include \"root\" {\n  path = \"../../_common/root.hcl\"\n  expose = true\n}\n"
            + "dependencies {\n  paths = [include.root.locals.vpc]\n}\n");
    repo.write("dev/listed/deps/vpc.yaml", "");
    repo.write("dev/listed/deps/db.yaml", "");
    repo.unit(
        "dev/listed",
        "dependencies {\n  paths = [for f in fileset(\"${get_terragrunt_dir()}/deps\", \"*.yaml\")"
            + " : \"../${trimsuffix(f, \".yaml\")}\"]\n}\n");
    repo.write("data/app.txt", "x");
    repo.unit("dev/reader", "inputs = {\n  data = file(\"../../data/app.txt\")\n}\n");
    repo.unit("dev/edited", dependency("vpc", "../vpc"));
    repo.unit("dev/gone", dependency("db", "../db"));
    repo.write("dev/cache/main.tf", "resource \"terraform_data\" \"this\" {}\n");
    repo.unit("dev/by-file", dependency("cache", "../cache/terragrunt.hcl"));
    repo.unit("dev/untouched", dependency("vpc", "../vpc"));
    base = repo.commit("base");

    repo.write("_common/root.hcl", "locals {\n  vpc = \"../db\"\n}\n");
    repo.delete("dev/listed/deps/db.yaml");
    repo.delete("data/app.txt");
    repo.unit("dev/edited", dependency("db", "../db"));
    repo.delete("dev/gone/terragrunt.hcl");
    repo.delete("dev/gone/main.tf");
    repo.delete("dev/db/terragrunt.hcl");
    repo.write("dev/db/terragrunt.hcl.bak", "");
    repo.write("dev/cache/terragrunt.hcl", "");
    head = repo.commit("head");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private ScanCommand command() {
    return ScanCommand.builder(repo.root(), Accounts.wholeRepository())
        .base(base)
        .head(head)
        .parallelism(2)
        .build();
  }

  /** The fixture's stacks, if any, have local sources only. */
  private static final RemoteSources NO_REMOTE =
      (url, ref, subdir) -> {
        throw new AssertionError("the fixture has no remote source: " + url);
      };

  private static UnitGraph read(GitRepo git, String commit) {
    return UnitGraph.read(
        git.tree(commit),
        Accounts.wholeRepository(),
        Map.of(),
        TerragruntVersion.DEFAULT,
        2,
        ProgressListener.silent(),
        true,
        NO_REMOTE);
  }

  @Test
  void baseGraphEqualsTheBaseReadInFullWhateverTheChangeTouched() {
    try (GitRepo git = GitRepo.open(repo.root())) {
      UnitGraph headGraph = read(git, head);
      List<FileChange> files = git.changes(base, head);

      UnitGraph baseGraph = ChangeSet.baseGraph(git, base, command(), NO_REMOTE, headGraph, files);
      UnitGraph inFull = read(git, base);

      assertThat(baseGraph.units()).isEqualTo(inFull.units());
      for (String unit : inFull.units()) {
        assertThat(baseGraph.config(unit)).as(unit).isEqualTo(inFull.config(unit));
      }
      assertThat(inFull.config("dev/listed").dependencies()).hasSize(2);
      assertThat(headGraph.config("dev/listed").dependencies()).hasSize(1);
    }
  }

  @Test
  void baseGraphReadsAgainOnlyTheUnitsTheChangeCanHaveTouched() {
    try (GitRepo git = GitRepo.open(repo.root())) {
      UnitGraph headGraph = read(git, head);

      assertThat(ChangeSet.affectedUnits(headGraph, git.changes(base, head)))
          .containsExactlyInAnyOrder(
              "dev/included",
              "dev/listed",
              "dev/reader",
              "dev/edited",
              "dev/gone",
              "dev/db",
              "dev/cache",
              "dev/by-file");
      UnitGraph baseGraph =
          ChangeSet.baseGraph(git, base, command(), NO_REMOTE, headGraph, git.changes(base, head));
      assertThat(baseGraph.config("dev/untouched")).isSameAs(headGraph.config("dev/untouched"));
      assertThat(baseGraph.config("dev/vpc")).isSameAs(headGraph.config("dev/vpc"));
    }
  }
}
