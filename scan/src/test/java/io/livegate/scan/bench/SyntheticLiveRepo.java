package io.livegate.scan.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.function.Consumer;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * Writes a synthetic Terragrunt live repository of a given number of units as a real git repository
 * with two commits: a base, and a change that touches a handful of units and one {@code _envcommon}
 * file. The repository is packed with JGit's gc, as real clones are.
 *
 * <p>Layout, so that no directory holds more than about a hundred entries:
 *
 * <pre>
 * root.hcl                           read by every unit through include "root"
 * _envcommon/{vpc,app,db,...}.hcl    included by units; most declare dependency "vpc"
 * live/account-NNN/account.hcl
 * live/account-NNN/_global/iam/      one unit per account; every vpc depends on it
 * live/account-NNN/REGION/region.hcl
 * live/account-NNN/REGION/env-NN/env.hcl   read by units with read_terragrunt_config()
 * live/account-NNN/REGION/env-NN/vpc/      depends on the account's iam
 * live/account-NNN/REGION/env-NN/unit-NNN/ depends on ../vpc through _envcommon, and on
 *                                          earlier units of the env (chains and fan-out)
 * </pre>
 *
 * <p>Every unit has a terragrunt.hcl and a main.tf with a terraform_data resource, both naming the
 * unit's path so that, as in a real repository, no two units share a blob. Dependencies only point
 * at units generated earlier, so the graph is acyclic. A fixed seed makes the repository the same
 * on every machine.
 *
 * <p>A generated repository is cached under the work directory by unit count: a properties file
 * written after the last step marks it complete, and a rerun only reads that file.
 */
public final class SyntheticLiveRepo {
  /** Bump when the generated content changes, so cached repositories are regenerated. */
  private static final String GENERATOR_VERSION = "2";

  private static final PersonIdent AUTHOR =
      new PersonIdent("livegate bench", "bench@livegate.invalid", 1_700_000_000_000L, 0);

  private static final List<String> REGIONS = List.of("us-east-1", "eu-west-1");
  private static final int ENVS_PER_REGION = 10;
  private static final int UNITS_PER_ENV = 50;

  /** The _envcommon files units include, with the share of units that include each. */
  private static final String[] ENVCOMMON = {"app", "db", "cache", "worker", "queue", "standalone"};

  private static final double[] ENVCOMMON_SHARE = {0.30, 0.15, 0.10, 0.10, 0.05, 0.30};

  /** The _envcommon file that the change commit edits (about 5 % of units include it). */
  static final String CHANGED_ENVCOMMON = "_envcommon/queue.hcl";

  private static final int TOUCHED_UNITS = 5;

  /**
   * A generated repository.
   *
   * @param directory the work tree (with .git inside)
   * @param base the base commit
   * @param head the change commit
   * @param units how many units
   * @param dependencies how many dependencies the units declare, in all
   * @param touchedUnits the units whose own files the change commit edits
   * @param packStatistics JGit's gc statistics after packing
   * @param generationSeconds how long writing, committing and packing took when it was generated
   */
  public record Generated(
      Path directory,
      String base,
      String head,
      int units,
      int dependencies,
      List<String> touchedUnits,
      String packStatistics,
      double generationSeconds) {}

  private SyntheticLiveRepo() {}

  /** The repository of {@code units} units under {@code workDir}, generated only if not cached. */
  public static Generated obtain(Path workDir, int units, Consumer<String> progress) {
    Path home = workDir.resolve("units-" + units);
    Path marker = workDir.resolve("units-" + units + ".properties");
    Generated cached = readMarker(marker, home.resolve("repo"));
    if (cached != null && Files.isDirectory(cached.directory().resolve(".git"))) {
      progress.accept(
          "using the cached repository of "
              + units
              + " units in "
              + cached.directory()
              + " (generated in "
              + String.format(Locale.ROOT, "%.1f", cached.generationSeconds())
              + " s)");
      return cached;
    }
    try {
      Files.deleteIfExists(marker);
      deleteRecursively(home);
      Generated generated = generate(home.resolve("repo"), units, progress);
      writeMarker(marker, generated);
      return generated;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Generated generate(Path repo, int units, Consumer<String> progress)
      throws IOException {
    long start = System.nanoTime();
    Files.createDirectories(repo);
    Writer writer = new Writer(repo, units, progress);
    writer.writeBase();
    progress.accept(
        String.format(
            Locale.ROOT,
            "wrote %d units (%d files) in %.1f s",
            units,
            writer.files,
            seconds(start)));
    try (Git git = Git.init().setDirectory(repo.toFile()).setInitialBranch("main").call()) {
      long step = System.nanoTime();
      String base = commitAll(git, "base: " + units + " units");
      progress.accept(
          String.format(Locale.ROOT, "git add + commit (base) in %.1f s", seconds(step)));

      List<String> touched = writer.writeChange();
      step = System.nanoTime();
      String head = commitAll(git, "change " + touched.size() + " units and one _envcommon file");
      progress.accept(
          String.format(Locale.ROOT, "git add + commit (change) in %.1f s", seconds(step)));

      step = System.nanoTime();
      Properties stats = git.gc().setAggressive(false).call();
      // JGit puts Long values into these Properties, so getProperty() would answer null.
      String packed =
          String.format(
              Locale.ROOT,
              "packed with JGit gc: %s objects in %s pack(s), %.1f MiB; %s loose objects left",
              stats.get("numberOfPackedObjects"),
              stats.get("numberOfPackFiles"),
              ((Number) stats.get("sizeOfPackedObjects")).longValue() / 1048576.0,
              stats.get("numberOfLooseObjects"));
      progress.accept(String.format(Locale.ROOT, "git gc in %.1f s", seconds(step)));
      return new Generated(
          repo, base, head, units, writer.dependencies, touched, packed, seconds(start));
    } catch (GitAPIException e) {
      throw new IllegalStateException("cannot commit the synthetic repository: " + e, e);
    }
  }

  private static String commitAll(Git git, String message) throws GitAPIException {
    git.add().addFilepattern(".").call();
    return git.commit()
        .setMessage(message)
        .setAuthor(AUTHOR)
        .setCommitter(AUTHOR)
        .setSign(false)
        .call()
        .getName();
  }

  /** Writes the files; remembers every unit so the change commit can pick a few. */
  private static final class Writer {
    private final Path root;
    private final int units;
    private final Consumer<String> progress;
    private final Random random = new Random(20240611L);
    private final List<String> unitDirs = new ArrayList<>();
    private int files;
    private int dependencies;

    Writer(Path root, int units, Consumer<String> progress) {
      this.root = root;
      this.units = units;
      this.progress = progress;
    }

    void writeBase() throws IOException {
      write("root.hcl", rootHcl());
      write("_envcommon/vpc.hcl", envcommon("vpc", true));
      for (String component : ENVCOMMON) {
        write("_envcommon/" + component + ".hcl", envcommon(component, false));
      }
      int reportEvery = Math.max(10_000, units / 10);
      for (int account = 0; unitDirs.size() < units; account++) {
        String accountDir = String.format(Locale.ROOT, "live/account-%03d", account);
        write(accountDir + "/account.hcl", accountHcl(account));
        unit(accountDir + "/_global/iam", iamUnit(accountDir), 0);
        for (String region : REGIONS) {
          if (unitDirs.size() >= units) {
            break;
          }
          String regionDir = accountDir + "/" + region;
          write(regionDir + "/region.hcl", regionHcl(region));
          for (int env = 0; env < ENVS_PER_REGION && unitDirs.size() < units; env++) {
            String envDir = String.format(Locale.ROOT, "%s/env-%02d", regionDir, env);
            write(envDir + "/env.hcl", envHcl(account, region, env));
            unit(envDir + "/vpc", vpcUnit(envDir), 1);
            for (int index = 1; index < UNITS_PER_ENV && unitDirs.size() < units; index++) {
              int before = unitDirs.size();
              unitInEnv(envDir, index);
              if (before % reportEvery == 0 && before > 0) {
                progress.accept("  wrote " + before + "/" + units + " units");
              }
            }
          }
        }
      }
    }

    /** Appends to the files of a few units spread over the repo, one vpc, and one _envcommon. */
    List<String> writeChange() throws IOException {
      List<String> touched = new ArrayList<>();
      for (int k = 1; k <= TOUCHED_UNITS; k++) {
        String unit = unitDirs.get((int) ((long) units * k / (TOUCHED_UNITS + 1)));
        if (k == 3 && unit.contains("/env-")) {
          unit = unit.substring(0, unit.lastIndexOf('/')) + "/vpc";
        }
        if (!touched.contains(unit)) {
          touched.add(unit);
        }
      }
      for (int i = 0; i < touched.size(); i++) {
        String file = touched.get(i) + (i % 2 == 0 ? "/main.tf" : "/terragrunt.hcl");
        append(file, "\n# changed by the benchmark's change commit\n");
      }
      append(CHANGED_ENVCOMMON, "\n# changed by the benchmark's change commit\n");
      return touched;
    }

    private void unitInEnv(String envDir, int index) throws IOException {
      String component = pickEnvcommon();
      StringBuilder hcl = new StringBuilder();
      hcl.append(
          """
          include "root" {
            path = find_in_parent_folders("root.hcl")
          }

          include "envcommon" {
            path   = "${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/%s.hcl"
            expose = true
          }

          locals {
            env  = read_terragrunt_config(find_in_parent_folders("env.hcl"))
            name = "%s-${local.env.locals.env_name}"
          }
          """
              .formatted(component, unitName(index)));
      int count = component.equals("standalone") ? 0 : 1;
      if (index > 1 && random.nextDouble() < 0.30) {
        // a chain: this unit waits for the one before it
        hcl.append(
            """

            dependency "previous" {
              config_path = "../%s"
              mock_outputs = { id = "mock" }
            }
            """
                .formatted(unitName(index - 1)));
        count++;
      }
      if (index > 2 && random.nextDouble() < 0.15) {
        // fan-out: one or two earlier units, listed in a dependencies block
        List<String> paths = new ArrayList<>();
        int wanted = 1 + random.nextInt(2);
        for (int attempt = 0; attempt < 6 && paths.size() < wanted; attempt++) {
          String path = "\"../" + unitName(1 + random.nextInt(index - 2)) + "\"";
          if (!paths.contains(path)) {
            paths.add(path);
          }
        }
        hcl.append("\ndependencies {\n  paths = [" + String.join(", ", paths) + "]\n}\n");
        count += paths.size();
      }
      hcl.append(
          """

          inputs = {
            name           = local.name
            tier           = include.envcommon.locals.tier
            instance_count = %d
            description    = "%s"
          }
          """
              .formatted(1 + random.nextInt(9), envDir + "/" + unitName(index)));
      unit(envDir + "/" + unitName(index), hcl.toString(), count);
    }

    private String pickEnvcommon() {
      double roll = random.nextDouble();
      for (int i = 0; i < ENVCOMMON.length; i++) {
        roll -= ENVCOMMON_SHARE[i];
        if (roll < 0) {
          return ENVCOMMON[i];
        }
      }
      return ENVCOMMON[ENVCOMMON.length - 1];
    }

    private void unit(String dir, String terragruntHcl, int declaredDependencies)
        throws IOException {
      write(dir + "/terragrunt.hcl", terragruntHcl);
      write(
          dir + "/main.tf",
          """
          variable "name" {
            type    = string
            default = "%s"
          }

          resource "terraform_data" "this" {
            input = var.name
          }
          """
              .formatted(dir));
      unitDirs.add(dir);
      dependencies += declaredDependencies;
    }

    private void write(String path, String content) throws IOException {
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
      files++;
    }

    private void append(String path, String content) throws IOException {
      Files.writeString(
          root.resolve(path), content, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
  }

  private static String unitName(int index) {
    return String.format(Locale.ROOT, "unit-%03d", index);
  }

  private static String rootHcl() {
    return """
        locals {
          account_vars = read_terragrunt_config(find_in_parent_folders("account.hcl"))
          region_vars = read_terragrunt_config(
            find_in_parent_folders("region.hcl", "no-region.hcl"),
            { locals = { aws_region = "us-east-1" } }
          )
          account_name = local.account_vars.locals.account_name
          aws_region   = local.region_vars.locals.aws_region
        }

        remote_state {
          backend = "s3"
          config = {
            bucket  = "livegate-bench-${local.account_name}-tfstate"
            key     = "${path_relative_to_include()}/terraform.tfstate"
            region  = local.aws_region
            encrypt = true
          }
        }

        inputs = merge(local.account_vars.locals, local.region_vars.locals)
        """;
  }

  private static String envcommon(String component, boolean vpc) {
    if (vpc) {
      return """
          locals {
            tier = "network"
          }

          dependency "iam" {
            config_path = "${dirname(find_in_parent_folders("account.hcl"))}/_global/iam"
            mock_outputs = { role_arn = "arn:aws:iam::000000000000:role/mock" }
          }

          inputs = {
            role_arn = dependency.iam.outputs.role_arn
          }
          """;
    }
    if (component.equals("standalone")) {
      return """
          locals {
            tier = "standalone"
          }
          """;
    }
    return """
        locals {
          tier = "%s"
        }

        dependency "vpc" {
          config_path = "${get_terragrunt_dir()}/../vpc"
          mock_outputs = { vpc_id = "vpc-mock" }
        }

        inputs = {
          vpc_id = dependency.vpc.outputs.vpc_id
        }
        """
        .formatted(component);
  }

  private static String iamUnit(String accountDir) {
    return """
        include "root" {
          path = find_in_parent_folders("root.hcl")
        }

        inputs = {
          role_name   = "deployer"
          description = "%s/_global/iam"
        }
        """
        .formatted(accountDir);
  }

  private static String vpcUnit(String envDir) {
    return """
        include "root" {
          path = find_in_parent_folders("root.hcl")
        }

        include "envcommon" {
          path   = "${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/vpc.hcl"
          expose = true
        }

        locals {
          env = read_terragrunt_config(find_in_parent_folders("env.hcl"))
        }

        inputs = {
          cidr        = local.env.locals.cidr
          description = "%s/vpc"
        }
        """
        .formatted(envDir);
  }

  private static String accountHcl(int account) {
    return """
        locals {
          account_name = "account-%03d"
          account_id   = "%012d"
        }
        """
        .formatted(account, 100_000_000_000L + account);
  }

  private static String regionHcl(String region) {
    return """
        locals {
          aws_region = "%s"
        }
        """
        .formatted(region);
  }

  private static String envHcl(int account, String region, int env) {
    return """
        locals {
          env_name = "%s-env-%02d"
          cidr     = "10.%d.%d.0/24"
        }
        """
        .formatted(region, env, account % 256, REGIONS.indexOf(region) * 100 + env);
  }

  // ---------------------------------------------------------------- cache marker

  private static Generated readMarker(Path marker, Path repo) {
    if (!Files.isRegularFile(marker)) {
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(marker)) {
      properties.load(in);
    } catch (IOException e) {
      return null;
    }
    if (!GENERATOR_VERSION.equals(properties.getProperty("generator"))) {
      return null;
    }
    String touched = properties.getProperty("touchedUnits", "");
    return new Generated(
        repo,
        properties.getProperty("base"),
        properties.getProperty("head"),
        Integer.parseInt(properties.getProperty("units")),
        Integer.parseInt(properties.getProperty("dependencies")),
        touched.isEmpty() ? List.of() : List.of(touched.split(",")),
        properties.getProperty("pack"),
        Double.parseDouble(properties.getProperty("generationSeconds")));
  }

  private static void writeMarker(Path marker, Generated generated) throws IOException {
    Properties properties = new Properties();
    properties.setProperty("generator", GENERATOR_VERSION);
    properties.setProperty("base", generated.base());
    properties.setProperty("head", generated.head());
    properties.setProperty("units", Integer.toString(generated.units()));
    properties.setProperty("dependencies", Integer.toString(generated.dependencies()));
    properties.setProperty("touchedUnits", String.join(",", generated.touchedUnits()));
    properties.setProperty("pack", generated.packStatistics());
    properties.setProperty(
        "generationSeconds", String.format(Locale.ROOT, "%.1f", generated.generationSeconds()));
    try (OutputStream out = Files.newOutputStream(marker)) {
      properties.store(out, "a complete synthetic live repository; delete to regenerate");
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path directory, IOException e)
              throws IOException {
            Files.delete(directory);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
