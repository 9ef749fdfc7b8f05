package io.livegate.core.terragrunt;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.repo.SourceTree;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Finds the units of a tree: every directory under an account path that holds a terragrunt.hcl.
 * Hidden directories (which covers .terragrunt-cache and .terraform) are skipped, and so is the
 * repository root, whose terragrunt.hcl is the classic parent config that units include.
 */
public final class UnitDiscovery {
  private static final String SUFFIX = "/" + TerragruntConfigReader.CONFIG_FILE;

  private UnitDiscovery() {}

  /** Each unit id with its account, sorted by id. */
  public static SortedMap<String, Account> discover(SourceTree tree, Accounts accounts) {
    SortedMap<String, Account> units = new TreeMap<>();
    for (String file : tree.files()) {
      if (!file.endsWith(SUFFIX)) {
        continue;
      }
      String unit = file.substring(0, file.length() - SUFFIX.length());
      if (isHidden(unit)) {
        continue;
      }
      Optional<Account> account = accounts.accountOf(unit);
      account.ifPresent(found -> units.put(unit, found));
    }
    return units;
  }

  /** Whether a directory lies in a hidden directory, such as .terragrunt-cache or .git. */
  public static boolean isHidden(String dir) {
    for (String part : dir.split("/")) {
      if (part.startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
