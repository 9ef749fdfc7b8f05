package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.scan.repo.SourceTree;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Finds the candidate units of a tree as terragrunt's discovery does: every directory under an
 * account path that holds a terragrunt.hcl, hidden directories included; only directories named
 * {@code .git}, {@code .terraform} and {@code .terragrunt-cache} are skipped. The repository root
 * is a candidate too, with the id {@value #ROOT_UNIT}. A terragrunt.hcl that other configs include
 * is a unit like any other, as terragrunt 1.1.3 lists it (internal/discovery/phase_filesystem.go,
 * internal/util/file.go {@code SkipDirIfIgnorable}); a root config meant only to be included is
 * named otherwise ({@code root.hcl}) so that discovery does not find it. Only a catalog unit, the
 * source of units that stacks generate, is taken out again ({@code UnitGraph}).
 */
public final class UnitDiscovery {
  /** The id of a unit at the repository root, as terragrunt names it. */
  public static final String ROOT_UNIT = ".";

  /** The only directories terragrunt's discovery never enters. */
  public static final Set<String> SKIPPED_DIRECTORIES =
      Set.of(".git", ".terraform", ".terragrunt-cache");

  private UnitDiscovery() {}

  /** Each candidate unit id with its account, sorted by id. */
  public static SortedMap<String, Account> discover(SourceTree tree, Accounts accounts) {
    SortedMap<String, Account> units = new TreeMap<>();
    for (String file : tree.files()) {
      if (!RepoPaths.hasFileName(file, TerragruntConfigReader.CONFIG_FILE)) {
        continue;
      }
      String dir = RepoPaths.parent(file);
      if (isSkipped(dir)) {
        continue;
      }
      Optional<Account> account = accounts.accountOf(dir);
      account.ifPresent(found -> units.put(unitId(dir), found));
    }
    return units;
  }

  /** Whether a directory lies in a .git, .terraform or .terragrunt-cache directory. */
  public static boolean isSkipped(String dir) {
    // Every skipped name starts with a dot: most directories have no part that does.
    if (!dir.startsWith(".") && !dir.contains("/.")) {
      return false;
    }
    for (String part : dir.split("/")) {
      if (SKIPPED_DIRECTORIES.contains(part)) {
        return true;
      }
    }
    return false;
  }

  /** The unit id of a repo-relative directory: the directory, or {@value #ROOT_UNIT} for "". */
  public static String unitId(String dir) {
    return dir.isEmpty() ? ROOT_UNIT : dir;
  }

  /** The repo-relative directory of a unit id: the reverse of {@link #unitId}. */
  public static String directory(String unit) {
    return unit.equals(ROOT_UNIT) ? "" : unit;
  }

  /** The repo-relative path of a unit's terragrunt.hcl. */
  public static String configFile(String unit) {
    return RepoPaths.join(directory(unit), TerragruntConfigReader.CONFIG_FILE);
  }
}
