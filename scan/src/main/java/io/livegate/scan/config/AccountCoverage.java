package io.livegate.scan.config;

import io.livegate.core.RepoPaths;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.account.InvalidAccountsConfig;
import io.livegate.scan.repo.SourceTree;
import io.livegate.scan.terragrunt.Stacks;
import io.livegate.scan.terragrunt.TerragruntConfigReader;
import io.livegate.scan.terragrunt.UnitDiscovery;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Checks an accounts file against the repository before anything is deployed: an account whose path
 * holds no unit (a typo in {@code path}) would deploy nothing and exit 0, using up the merge, and
 * an account whose voters cannot reach its thresholds would wait for a vote that can never pass.
 */
public final class AccountCoverage {
  private AccountCoverage() {}

  /**
   * Fails naming every account whose path holds no unit (a {@code terragrunt.hcl} or a {@code
   * terragrunt.stack.hcl} under its path) in the merge's head, nor in its base: a merge that
   * deletes an account's last units still deploys their destroys.
   *
   * @param head the merge's head, whose top-level directories the message lists
   * @param base the revision the merge is deployed from
   * @param where what the two trees are, for the message (e.g. "HEAD (3f2a…) or its base (9c1d…)")
   * @throws InvalidAccountsConfig naming the accounts and where units are
   */
  public static void requireUnitsInEveryAccount(
      SourceTree head, SourceTree base, Accounts accounts, String where) {
    SortedSet<String> owners = new TreeSet<>();
    SortedSet<String> topLevel = new TreeSet<>();
    for (SourceTree tree : List.of(head, base)) {
      for (String file : tree.files()) {
        String name = RepoPaths.fileName(file);
        if (!name.equals(TerragruntConfigReader.CONFIG_FILE) && !name.equals(Stacks.STACK_FILE)) {
          continue;
        }
        String dir = RepoPaths.parent(file);
        if (UnitDiscovery.isSkipped(dir)) {
          continue;
        }
        if (tree == head) {
          topLevel.add(dir.isEmpty() ? "." : dir.split("/")[0]);
        }
        accounts.accountOf(dir).ifPresent(owner -> owners.add(owner.name()));
      }
    }
    List<String> problems = new ArrayList<>();
    for (Account account : accounts.all()) {
      if (!owners.contains(account.name())) {
        problems.add(
            "account \""
                + account.name()
                + "\": path '"
                + account.path()
                + "' holds no unit (no terragrunt.hcl under it) at "
                + where);
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidAccountsConfig(
          String.join("; ", problems)
              + (topLevel.isEmpty()
                  ? "; the repository has no unit at all"
                  : "; units are under: " + String.join(", ", topLevel)));
    }
  }

  /**
   * Fails naming every account whose voters are fewer than its {@code min_approvals} or {@code
   * min_rejections}: its vote could never be decided, and would wait out the vote timeout.
   *
   * @throws InvalidAccountsConfig naming the accounts, their thresholds and voters
   */
  public static void requireReachableThresholds(Accounts accounts) {
    List<String> problems = new ArrayList<>();
    for (Account account : accounts.all()) {
      int voters = account.voters().size();
      if (voters < account.minApprovals() || voters < account.minRejections()) {
        problems.add(
            "account \""
                + account.name()
                + "\": min_approvals = "
                + account.minApprovals()
                + " and min_rejections = "
                + account.minRejections()
                + " but "
                + (voters == 1 ? "1 voter" : voters + " voters")
                + (voters == 0 ? "" : " (" + String.join(", ", account.voters()) + ")")
                + ", so no vote could ever be decided");
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidAccountsConfig(String.join("; ", problems));
    }
  }
}
