package io.livegate.scan.graph;

import io.livegate.core.LivegateException;
import java.util.List;

/** Units that depend on each other in a circle, so no order can deploy them. */
public class DependencyCycle extends LivegateException {
  private static final long serialVersionUID = 1L;

  private final List<String> cycle;

  /**
   * @param cycle the nodes in order, the first repeated at the end
   * @param edges for each step of the cycle, where it is declared
   */
  public DependencyCycle(List<String> cycle, List<String> edges) {
    super("dependency cycle: " + String.join(" -> ", cycle) + "\n  " + String.join("\n  ", edges));
    this.cycle = List.copyOf(cycle);
  }

  public List<String> cycle() {
    return cycle;
  }
}
