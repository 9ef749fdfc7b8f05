package io.livegate.scan.graph;

import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Orders units into layers: a unit's layer is one more than the highest layer of anything it must
 * wait for, so every layer can run in parallel once the layers before it are done.
 *
 * <p>A unit waits for its dependencies and, through one barrier node per account, for every unit of
 * the accounts its account depends on (transitively, because barriers chain). Barriers take no
 * layer of their own. Kahn's algorithm visits ready nodes from a queue ordered by id, so the same
 * input always gives the same order; whatever it cannot visit lies on or behind a cycle, and the
 * first cycle found among those nodes is reported with the declaration behind each edge.
 */
public final class Layering {
  /** Barrier ids start with "/", which no normalised unit id does. */
  private static final String BARRIER = "/account/";

  private Layering() {}

  /**
   * @param units the units to order
   * @param edges the unit-to-unit edges among {@code units}
   * @param accountOf each unit's account
   * @return each unit's layer, from 0
   * @throws DependencyCycle when the units cannot be ordered
   */
  public static Map<String, Integer> layers(
      Collection<String> units,
      Collection<Edge> edges,
      Function<String, Account> accountOf,
      Accounts accounts) {
    Map<String, List<Edge>> waitsFor = new HashMap<>();
    Map<String, List<String>> releases = new HashMap<>();
    Set<String> nodes = new HashSet<>(units);
    List<Edge> all = new ArrayList<>(edges);
    for (Account account : accounts.all()) {
      String barrier = BARRIER + account.name();
      nodes.add(barrier);
      for (String dependency : account.dependsOn()) {
        all.add(
            new Edge(
                barrier,
                BARRIER + dependency,
                "account \"" + account.name() + "\" depends on account \"" + dependency + "\""));
      }
    }
    for (String unit : units) {
      Account account = accountOf.apply(unit);
      all.add(
          new Edge(
              BARRIER + account.name(),
              unit,
              unit + " belongs to account \"" + account.name() + "\""));
      for (String dependency : account.dependsOn()) {
        all.add(
            new Edge(
                unit,
                BARRIER + dependency,
                "account \"" + account.name() + "\" depends on account \"" + dependency + "\""));
      }
    }
    for (Edge edge : all) {
      waitsFor.computeIfAbsent(edge.from(), node -> new ArrayList<>()).add(edge);
      releases.computeIfAbsent(edge.to(), node -> new ArrayList<>()).add(edge.from());
    }

    Map<String, Integer> pending = new HashMap<>();
    PriorityQueue<String> ready = new PriorityQueue<>();
    for (String node : nodes) {
      int count = waitsFor.getOrDefault(node, List.of()).size();
      pending.put(node, count);
      if (count == 0) {
        ready.add(node);
      }
    }
    Map<String, Integer> level = new HashMap<>();
    Map<String, Integer> layers = new TreeMap<>();
    while (!ready.isEmpty()) {
      String node = ready.poll();
      int layer = 0;
      for (Edge edge : waitsFor.getOrDefault(node, List.of())) {
        layer = Math.max(layer, level.get(edge.to()) + (isBarrier(edge.to()) ? 0 : 1));
      }
      level.put(node, layer);
      if (!isBarrier(node)) {
        layers.put(node, layer);
      }
      for (String waiting : releases.getOrDefault(node, List.of())) {
        if (pending.merge(waiting, -1, Integer::sum) == 0) {
          ready.add(waiting);
        }
      }
    }
    if (level.size() < nodes.size()) {
      throw cycle(nodes, level.keySet(), waitsFor);
    }
    return layers;
  }

  private static boolean isBarrier(String node) {
    return node.startsWith(BARRIER);
  }

  private static String display(String node) {
    return isBarrier(node) ? "account \"" + node.substring(BARRIER.length()) + "\"" : node;
  }

  private static DependencyCycle cycle(
      Set<String> nodes, Set<String> visited, Map<String, List<Edge>> waitsFor) {
    List<String> candidates =
        nodes.stream().filter(node -> !visited.contains(node)).sorted().toList();
    Set<String> remaining = new HashSet<>(candidates);
    // Every stuck node waits for another stuck node, so following such edges must come back round.
    Map<String, Edge> taken = new LinkedHashMap<>();
    Deque<String> path = new ArrayDeque<>();
    String node = candidates.get(0);
    while (!taken.containsKey(node)) {
      Edge next =
          waitsFor.get(node).stream()
              .filter(edge -> remaining.contains(edge.to()))
              .min((a, b) -> a.to().compareTo(b.to()))
              .orElseThrow();
      taken.put(node, next);
      path.addLast(node);
      node = next.to();
    }
    List<String> cycle = new ArrayList<>();
    List<String> edges = new ArrayList<>();
    boolean inCycle = false;
    for (String step : path) {
      inCycle |= step.equals(node);
      if (inCycle) {
        cycle.add(display(step));
        Edge edge = taken.get(step);
        edges.add(display(edge.from()) + " -> " + display(edge.to()) + ": " + edge.declaredAt());
      }
    }
    cycle.add(display(node));
    return new DependencyCycle(cycle, edges);
  }
}
