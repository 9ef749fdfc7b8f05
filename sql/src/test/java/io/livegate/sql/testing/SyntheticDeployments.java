package io.livegate.sql.testing;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.AccountWaits;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.stack.AccountOrder;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.ScanMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Deploy stacks in shapes that no scan of a small test repository gives: hundreds or thousands of
 * units in a random layered DAG, or units with odd ids. They are queued through the real {@code
 * CreateDeployment}, as a scan's stack would be.
 */
public final class SyntheticDeployments {
  public static final List<String> VOTERS = List.of("alice", "bob", "carol");

  private SyntheticDeployments() {}

  /** {@code count} accounts voted on by {@link #VOTERS}: two approve, one rejects. */
  public static Accounts accounts(int count) {
    return accounts(count, VOTERS, 2, 1);
  }

  /**
   * {@code count} accounts named account-0 and on, in a tree: account-i depends on
   * account-((i-1)/2), so account-0 goes first.
   */
  public static Accounts accounts(
      int count, List<String> voters, int minApprovals, int minRejections) {
    List<Account> accounts = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      accounts.add(
          Account.of(
                  "account-" + index,
                  "account-" + index,
                  index == 0 ? List.of() : List.of("account-" + (index - 1) / 2))
              .withVotes(voters, minApprovals, minRejections));
    }
    return Accounts.of(accounts);
  }

  public static PlannedExecution unit(
      String unit, String account, int layer, List<String> dependsOn) {
    return new PlannedExecution(
        unit, account, List.copyOf(new TreeSet<>(dependsOn)), layer, List.of());
  }

  /**
   * The merge of pull request {@code prNumber} (merge commit "merge-N"), deploying {@code units}.
   */
  public static CreateDeploymentCommand command(
      int prNumber, Accounts accounts, List<PlannedExecution> units) {
    DeployStack stack = stack("base-" + prNumber, "merge-" + prNumber, accounts, units);
    return Scenarios.command(stack, accounts, prNumber, stack.base());
  }

  /** The graph scan's deploy stack of {@code units} between {@code base} and {@code head}. */
  public static DeployStack stack(
      String base, String head, Accounts accounts, List<PlannedExecution> units) {
    List<AccountOrder> orders =
        accounts.all().stream()
            .map(account -> new AccountOrder(account.name(), account.path(), account.dependsOn()))
            .toList();
    return new DeployStack(
        ScanMode.GRAPH, base, head, orders, units, List.of(), List.of(), List.of());
  }

  /**
   * A random layered DAG of {@code units} units over {@link #accounts} (account-0 and on), split
   * into one consecutive run per account. A unit depends on one earlier unit of its own account or
   * of an account its account waits for, and on a second one with probability {@code
   * extraDependency}; the first unit of each account depends on nothing. Layers are as a scan gives
   * them: above every dependency and above every unit of a waited-for account.
   */
  public static List<PlannedExecution> layered(
      long seed, int units, Accounts accounts, double extraDependency) {
    Random random = new Random(seed);
    int accountCount = accounts.all().size();
    Map<String, Set<String>> waits = AccountWaits.of(accounts);
    Map<String, List<String>> unitsOf = new HashMap<>();
    Map<String, Integer> layers = new HashMap<>();
    Map<String, Integer> topLayer = new HashMap<>();
    List<PlannedExecution> planned = new ArrayList<>();
    for (int index = 0; index < units; index++) {
      // Accounts in index order are in dependency order, so every waited-for unit exists already.
      String account = "account-" + (long) index * accountCount / units;
      List<String> candidates = new ArrayList<>(unitsOf.getOrDefault(account, List.of()));
      int floor = 0;
      for (String waited : waits.getOrDefault(account, Set.of())) {
        candidates.addAll(unitsOf.getOrDefault(waited, List.of()));
        floor = Math.max(floor, topLayer.getOrDefault(waited, -1) + 1);
      }
      Set<String> dependsOn = new TreeSet<>();
      if (unitsOf.containsKey(account)) {
        dependsOn.add(candidates.get(random.nextInt(candidates.size())));
        if (random.nextDouble() < extraDependency) {
          dependsOn.add(candidates.get(random.nextInt(candidates.size())));
        }
      }
      int layer = floor;
      for (String dependency : dependsOn) {
        layer = Math.max(layer, layers.get(dependency) + 1);
      }
      String unit = String.format("%s/unit-%05d", account, index);
      unitsOf.computeIfAbsent(account, name -> new ArrayList<>()).add(unit);
      layers.put(unit, layer);
      topLayer.merge(account, layer, Math::max);
      planned.add(unit(unit, account, layer, List.copyOf(dependsOn)));
    }
    planned.sort(
        Comparator.comparingInt(PlannedExecution::layer).thenComparing(PlannedExecution::unit));
    return planned;
  }
}
