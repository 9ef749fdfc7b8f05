package io.livegate.core.account;

import io.livegate.core.RepoPaths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The installation's accounts, checked: unique names, paths that do not overlap (so every unit has
 * exactly one account, and one set of voters), known and acyclic dependencies.
 */
public final class Accounts {
  /** The name of the one account used when no accounts file is given. */
  public static final String DEFAULT_ACCOUNT = "default";

  private final Map<String, Account> byName;

  private Accounts(List<Account> accounts) {
    Map<String, Account> names = new LinkedHashMap<>();
    Set<String> paths = new HashSet<>();
    for (Account account : accounts) {
      if (account.name().isBlank()) {
        throw new InvalidAccountsConfig("an account has an empty name");
      }
      if (names.putIfAbsent(account.name(), account) != null) {
        throw new InvalidAccountsConfig("account \"" + account.name() + "\" is defined twice");
      }
      if (!paths.add(account.path())) {
        throw new InvalidAccountsConfig(
            "account \""
                + account.name()
                + "\": path '"
                + account.path()
                + "' belongs to another account too");
      }
      if (account.minApprovals() < 1 || account.minRejections() < 1) {
        throw new InvalidAccountsConfig(
            "account \""
                + account.name()
                + "\": min_approvals and min_rejections must be at least 1");
      }
    }
    rejectOverlaps(accounts);
    for (Account account : accounts) {
      for (String dependency : account.dependsOn()) {
        if (!names.containsKey(dependency)) {
          throw new InvalidAccountsConfig(
              "account \""
                  + account.name()
                  + "\" depends on \""
                  + dependency
                  + "\", which is not an account"
                  + " (accounts: "
                  + String.join(", ", names.keySet())
                  + ")");
        }
      }
    }
    this.byName = names;
    rejectCycles();
  }

  /**
   * Checks and wraps {@code accounts}.
   *
   * @throws InvalidAccountsConfig naming the first problem found
   */
  public static Accounts of(List<Account> accounts) {
    if (accounts.isEmpty()) {
      throw new InvalidAccountsConfig("no accounts are configured");
    }
    List<Account> normalized = new ArrayList<>();
    for (Account account : accounts) {
      String path = RepoPaths.normalize(account.path());
      if (path == null) {
        throw new InvalidAccountsConfig(
            "account \""
                + account.name()
                + "\": path '"
                + account.path()
                + "' is outside the repository");
      }
      normalized.add(
          new Account(
              account.name(),
              path,
              account.dependsOn(),
              account.voters(),
              account.minApprovals(),
              account.minRejections(),
              account.planRole(),
              account.applyRole(),
              account.destroyDeleted()));
    }
    return new Accounts(normalized);
  }

  /** The whole repository as one account, for when no accounts file is given. */
  public static Accounts wholeRepository() {
    return of(List.of(Account.of(DEFAULT_ACCOUNT, "", List.of())));
  }

  public List<Account> all() {
    return List.copyOf(byName.values());
  }

  public Account get(String name) {
    Account account = byName.get(name);
    if (account == null) {
      throw new InvalidAccountsConfig("no account named \"" + name + "\"");
    }
    return account;
  }

  /** The account whose path holds {@code unit}: paths do not overlap, so there is at most one. */
  public Optional<Account> accountOf(String unit) {
    for (Account account : byName.values()) {
      if (RepoPaths.isWithin(unit, account.path())) {
        return Optional.of(account);
      }
    }
    return Optional.empty();
  }

  /**
   * A path inside another account's path would split that account's voters silently: a unit under
   * both would be voted on by one of them only. Sibling paths that share a prefix of characters
   * ({@code dev/eu} and {@code dev/euro}) do not overlap.
   */
  private static void rejectOverlaps(List<Account> accounts) {
    for (Account outer : accounts) {
      for (Account inner : accounts) {
        if (inner != outer
            && !inner.path().equals(outer.path())
            && RepoPaths.isWithin(inner.path(), outer.path())) {
          throw new InvalidAccountsConfig(
              "account \""
                  + inner.name()
                  + "\" (path '"
                  + inner.path()
                  + "') lies inside account \""
                  + outer.name()
                  + "\" (path '"
                  + outer.path()
                  + "'"
                  + (outer.path().isEmpty() ? ", the whole repository" : "")
                  + "): a unit under '"
                  + inner.path()
                  + "' would belong to both. Give each account a path of its own (move \""
                  + outer.name()
                  + "\" to sibling directories of '"
                  + inner.path()
                  + "')");
        }
      }
    }
  }

  private void rejectCycles() {
    Map<String, Integer> state = new LinkedHashMap<>();
    for (String name : byName.keySet()) {
      visit(name, state, new ArrayList<>());
    }
  }

  private void visit(String name, Map<String, Integer> state, List<String> path) {
    Integer seen = state.get(name);
    if (seen != null && seen == 2) {
      return;
    }
    path.add(name);
    if (seen != null) {
      List<String> cycle = path.subList(path.indexOf(name), path.size());
      throw new InvalidAccountsConfig("account dependency cycle: " + String.join(" -> ", cycle));
    }
    state.put(name, 1);
    for (String dependency : byName.get(name).dependsOn()) {
      visit(dependency, state, path);
    }
    state.put(name, 2);
    path.remove(path.size() - 1);
  }
}
