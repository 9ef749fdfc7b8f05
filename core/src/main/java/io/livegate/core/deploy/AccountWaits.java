package io.livegate.core.deploy;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The transitive closure of account dependencies, which is what a deployment stores. */
public final class AccountWaits {
  private AccountWaits() {}

  /** Account name to every account it depends on, directly or through others. */
  public static Map<String, Set<String>> of(Accounts accounts) {
    Map<String, Set<String>> closure = new TreeMap<>();
    for (Account account : accounts.all()) {
      Set<String> reached = new TreeSet<>();
      Deque<String> queue = new ArrayDeque<>(account.dependsOn());
      while (!queue.isEmpty()) {
        String next = queue.poll();
        if (reached.add(next)) {
          queue.addAll(accounts.get(next).dependsOn());
        }
      }
      if (!reached.isEmpty()) {
        closure.put(account.name(), reached);
      }
    }
    return closure;
  }

  /** The same closure as lists, for storing. */
  public static Map<String, List<String>> asLists(Map<String, Set<String>> waits) {
    Map<String, List<String>> lists = new TreeMap<>();
    waits.forEach((account, depends) -> lists.put(account, List.copyOf(depends)));
    return lists;
  }
}
