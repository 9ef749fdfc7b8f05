package io.livegate.scan;

import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.terragrunt.InvalidTerragruntConfig;
import io.livegate.scan.terragrunt.StackGenerator;
import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.transport.URIish;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stack units whose sources live in another git repository: a bare "remote" catalog in a temp
 * directory, reached through {@code file://} URLs, fetched into a cache directory of the test. No
 * network beyond the loopback interface is used.
 *
 * <p>The catalog holds {@code units/vpc} and {@code units/app} (whose dependency path comes from
 * {@code values} and which reads its {@code config.yaml}), tagged {@code v1}; {@code v2} changes
 * the app. {@code live/prod} generates a vpc and an app from it.
 */
class RemoteStackSourcesTest {
  private static final String VPC = "live/prod/.terragrunt-stack/vpc";
  private static final String APP = "live/prod/.terragrunt-stack/app";

  @TempDir Path dir;
  private TestRepo catalog;
  private TestRepo repo;
  private Path remote;
  private Path cache;
  private String v1;

  @BeforeEach
  void createRepositories() throws Exception {
    catalog = TestRepo.create(dir.resolve("catalog-work"));
    catalog.write("units/vpc/terragrunt.hcl", "inputs = {\n  cidr = values.cidr\n}\n");
    catalog.write(
        "units/app/terragrunt.hcl",
        "dependency \"vpc\" {\n  config_path = values.vpc_path\n}\n\n"
            + "inputs = {\n  config = yamldecode(file(\"config.yaml\"))\n}\n");
    catalog.write("units/app/config.yaml", "replicas: 2\n");
    v1 = catalog.commit("catalog v1");
    remote = dir.resolve("catalog.git");
    try (Git work = Git.open(catalog.root().toFile())) {
      work.tag().setName("v1").setAnnotated(true).setMessage("v1").call();
      catalog.touch("units/app/terragrunt.hcl");
      catalog.commit("catalog v2");
      work.tag().setName("v2").call();
      Git.init()
          .setBare(true)
          .setInitialBranch("main")
          .setDirectory(remote.toFile())
          .call()
          .close();
      work.push()
          .setRemote(new URIish(remote.toUri().toURL()).toString())
          .setPushAll()
          .setPushTags()
          .call();
    }
    cache = dir.resolve("cache");
    repo = TestRepo.create(dir.resolve("live"));
    repo.write("live/prod/terragrunt.stack.hcl", prodStack("v1", "v1"));
  }

  @AfterEach
  void closeRepositories() {
    repo.close();
    catalog.close();
  }

  private String url() {
    return "file://" + remote.toAbsolutePath();
  }

  private String prodStack(String vpcRef, String appRef) {
    return "unit \"vpc\" {\n  source = \"git::"
        + url()
        + "//units/vpc?ref="
        + vpcRef
        + "\"\n  path   = \"vpc\"\n  values = {\n    cidr = \"10.2.0.0/16\"\n  }\n}\n\n"
        + "unit \"app\" {\n  source = \"git::"
        + url()
        + "//units/app?ref="
        + appRef
        + "\"\n  path   = \"app\"\n  values = {\n    vpc_path = \"../vpc\"\n  }\n}\n";
  }

  /** The test's cache, its catalog fetched over file:// as the operator allowed. */
  private SourceAccess local() {
    return new SourceAccess(cache, true, Set.of());
  }

  private DeployStack scan(String base, String head) {
    return scan(base, head, local());
  }

  private DeployStack scan(String base, String head, SourceAccess sources) {
    return new GraphScan(ProgressListener.silent())
        .run(
            ScanCommand.builder(repo.root(), Accounts.wholeRepository())
                .base(base)
                .head(head)
                .all(base == null)
                .parallelism(2)
                .sources(sources)
                .build());
  }

  @Test
  void aFileSourceIsRefusedNamingTheUnitFileAndLineUnlessTheOperatorAllowsLocalSources()
      throws IOException {
    String head = repo.commit("prod from a repository elsewhere on this machine");

    assertThatThrownBy(() -> scan(null, head, SourceAccess.in(dir.resolve("state"))))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageContaining(
            "live/prod/terragrunt.stack.hcl:9: unit \"app\" ("
                + APP
                + "): cannot fetch its source "
                + url()
                + "//units/app?ref=v1: a file:// source is a repository of this machine outside"
                + " the one being deployed; livegate fetches it only when the operator passes"
                + " --allow-local-sources (unit "
                + APP
                + ")");
    assertThat(dir.resolve("state/sources"))
        .as("nothing of the repository was fetched into the cache")
        .doesNotExist();

    assertThat(
            units(scan(null, head, new SourceAccess(dir.resolve("state/sources"), true, Set.of()))))
        .containsExactly(VPC, APP);
    assertThat(dir.resolve("state/sources")).isDirectory();
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("state/sources"))))
        .as("the cache is its owner's only")
        .isEqualTo("rwx------");
  }

  @Test
  void aLocalSourcePathOutsideTheRepositoryIsRefusedNamingTheUnitFileAndLine() {
    repo.write(
        "live/prod/terragrunt.stack.hcl",
        "unit \"vpc\" {\n  source = \""
            + catalog.root().resolve("units/vpc")
            + "\"\n  path   = \"vpc\"\n}\n");
    String head = repo.commit("vpc from a directory elsewhere on this machine");

    assertThatThrownBy(() -> scan(null, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "live/prod/terragrunt.stack.hcl:1: unit \"vpc\" ("
                + VPC
                + "): its source '"
                + catalog.root().resolve("units/vpc")
                + "' is outside the repository; livegate reads a local source from the"
                + " repository's commit only (a repository elsewhere on this machine is a"
                + " git::file:// source, fetched only with --allow-local-sources) (unit "
                + VPC
                + ")");
  }

  @Test
  void remoteCatalogUnitsAreFetchedIntoTheCacheAndGeneratedWithTheirEdges() throws IOException {
    DeployStack stack = scan(null, repo.commit("prod from the remote catalog"));

    assertThat(units(stack)).containsExactly(VPC, APP);
    assertThat(execution(stack, APP).dependsOn()).containsExactly(VPC);
    assertThat(stack.warnings()).isEmpty();
    assertThat(dir.resolve("live/live/prod/.terragrunt-stack")).doesNotExist();
    try (Stream<Path> entries = Files.list(cache)) {
      assertThat(entries.filter(Files::isDirectory))
          .as("one cached repository for the one (url, ref)")
          .hasSize(1);
    }
  }

  @Test
  void changedRefChangesExactlyTheUnitsGeneratedFromIt() {
    String base = repo.commit("prod from catalog v1");
    repo.write("live/prod/terragrunt.stack.hcl", prodStack("v1", "v2"));

    DeployStack stack = scan(base, repo.commit("app from catalog v2"));

    assertThat(units(stack)).containsExactly(APP);
    assertThat(execution(stack, APP).reasons())
        .containsExactly(
            Reason.readsChangedFile("live/prod/terragrunt.stack.hcl", "terragrunt.stack.hcl"));
  }

  @Test
  void commitRefIsReadFromTheCacheOnceTheRemoteIsGone() throws IOException {
    repo.write("live/prod/terragrunt.stack.hcl", prodStack(v1, v1));
    String head = repo.commit("prod pinned to a commit");
    scan(null, head);
    deleteRecursively(remote);

    DeployStack offline = scan(null, head);

    assertThat(units(offline)).containsExactly(VPC, APP);
    assertThat(execution(offline, APP).dependsOn()).containsExactly(VPC);
  }

  @Test
  void missingRemoteIsOneErrorPerUnitNamingTheUnitAndTheUrl() throws IOException {
    String head = repo.commit("prod from the remote catalog");
    deleteRecursively(remote);

    assertThatThrownBy(() -> scan(null, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "2 problems in the live repository:\n"
                + "  live/prod/terragrunt.stack.hcl:9: unit \"app\" ("
                + APP
                + "): cannot fetch its source "
                + url()
                + "//units/app?ref=v1: "
                + url()
                + ": not found. (unit "
                + APP
                + ")\n  live/prod/terragrunt.stack.hcl:1: unit \"vpc\" ("
                + VPC
                + "): cannot fetch its source "
                + url()
                + "//units/vpc?ref=v1: "
                + url()
                + ": not found. (unit "
                + VPC
                + ")");
  }

  @Test
  void unreachableHttpsRemoteIsAnErrorThatNamesTheUrlWithoutItsToken() {
    repo.write(
        "live/prod/terragrunt.stack.hcl",
        "unit \"vpc\" {\n  source = \"git::https://ci:s3cret-token@127.0.0.1:1/acme/catalog.git"
            + "//units/vpc?ref=v1\"\n  path   = \"vpc\"\n}\n");
    String head = repo.commit("vpc from an unreachable remote");

    assertThatThrownBy(() -> scan(null, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessageStartingWith(
            "live/prod/terragrunt.stack.hcl:1: unit \"vpc\" ("
                + VPC
                + "): cannot fetch its source https://127.0.0.1:1/acme/catalog.git//units/vpc"
                + "?ref=v1: ")
        .message()
        .doesNotContain("s3cret-token");
  }

  @Test
  void refThatTheRemoteDoesNotHaveIsAnErrorNamingTheRef() {
    repo.write("live/prod/terragrunt.stack.hcl", prodStack("v1", "v9"));
    String head = repo.commit("app from a tag that does not exist");

    assertThatThrownBy(() -> scan(null, head))
        .isInstanceOf(InvalidTerragruntConfig.class)
        .hasMessage(
            "live/prod/terragrunt.stack.hcl:9: unit \"app\" ("
                + APP
                + "): cannot fetch its source "
                + url()
                + "//units/app?ref=v9: the remote has no branch or tag v9 (unit "
                + APP
                + ")");
  }

  @Test
  void aScannedRemoteUnitIsWrittenForTheRunnerFromTheScansCacheWithoutTheNetwork()
      throws IOException {
    String head = repo.commit("vpc and app from catalog v1");
    scan(null, head);
    Files.move(remote, dir.resolve("unreachable.git"));

    assertThat(
            new StackGenerator(GitSourceCache.reusingFetched(local()), Map.of())
                .generate(repo.root(), APP))
        .isTrue();

    Path app = repo.root().resolve(APP);
    try (Git work = Git.open(catalog.root().toFile())) {
      work.checkout().setName("v1").call();
    } catch (GitAPIException e) {
      throw new IllegalStateException(e);
    }
    assertThat(app.resolve("terragrunt.hcl"))
        .hasSameTextualContentAs(catalog.root().resolve("units/app/terragrunt.hcl"));
    assertThat(app.resolve("config.yaml")).hasContent("replicas: 2\n");
    assertThat(app.resolve(StackGenerator.VALUES_FILE))
        .content()
        .endsWith("vpc_path = \"../vpc\"\n");
    // A tag can move, so a scan fetches it again; the runner takes what its scan fetched.
    assertThatThrownBy(
            () ->
                new StackGenerator(new GitSourceCache(local()), Map.of())
                    .generate(repo.root(), VPC))
        .hasMessageContaining("cannot fetch its source " + url() + "//units/vpc?ref=v1");
  }

  @Test
  void aRemoteUnitThatTheCacheDoesNotHoldCannotBeWrittenWithoutTheNetwork() throws IOException {
    repo.commit("vpc and app from catalog v1");
    Files.move(remote, dir.resolve("unreachable.git"));

    assertThatThrownBy(
            () ->
                new StackGenerator(
                        GitSourceCache.reusingFetched(
                            new SourceAccess(dir.resolve("empty-cache"), true, Set.of())),
                        Map.of())
                    .generate(repo.root(), APP))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith(
            "cannot generate "
                + APP
                + ": live/prod/terragrunt.stack.hcl:9: unit \"app\" ("
                + APP
                + "): cannot fetch its source "
                + url()
                + "//units/app?ref=v1: ");
    assertThat(repo.root().resolve(APP)).doesNotExist();
  }

  private static void deleteRecursively(Path path) throws IOException {
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(each);
      }
    }
  }
}
