package io.livegate.core.account;

import io.livegate.core.RepoPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The installation's accounts, checked: unique names and paths, known and acyclic dependencies. */
public final class Accounts {
  /** The name of the one account used when no accounts file is given. */
  public static final String DEFAULT_ACCOUNT = "default";

  private final Map<String, Account> byName;

  /** Longest path first, so a unit belongs to the most specific account. */
  private final List<Account> byPathLength;

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
    this.byPathLength = new ArrayList<>(accounts);
    this.byPathLength.sort(Comparator.comparingInt((Account a) -> a.path().length()).reversed());
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

  /** The most specific account whose path holds {@code unit}. */
  public Optional<Account> accountOf(String unit) {
    for (Account account : byPathLength) {
      if (RepoPaths.isWithin(unit, account.path())) {
        return Optional.of(account);
      }
    }
    return Optional.empty();
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
