package io.livegate.cli.render;

import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The deploy stack as a graph in Graphviz dot or Mermaid. Changed units and dependents are styled
 * differently; edges point from a unit to what it depends on. Unit ids are escaped, since a
 * directory name can hold quotes or brackets.
 */
public final class GraphRenderer {
  private GraphRenderer() {}

  public static String dot(DeployStack stack) {
    StringBuilder out =
        new StringBuilder(
            "digraph livegate {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n");
    Map<String, Set<PlannedExecution>> byAccount = byAccount(stack);
    int cluster = 0;
    for (Map.Entry<String, Set<PlannedExecution>> account : byAccount.entrySet()) {
      out.append("  subgraph cluster_")
          .append(cluster++)
          .append(" {\n    label=")
          .append(dotString(account.getKey()))
          .append(";\n");
      for (PlannedExecution execution : account.getValue()) {
        out.append("    ")
            .append(dotString(execution.unit()))
            .append(" [label=")
            .append(dotString(execution.unit() + "\nlayer " + execution.layer()))
            .append(", fillcolor=")
            .append(isChanged(execution) ? "\"#ffd7a8\"" : "\"#dbe9ff\"")
            .append("];\n");
      }
      out.append("  }\n");
    }
    for (PlannedExecution execution : stack.executions()) {
      for (String dependency : execution.dependsOn()) {
        out.append("  ")
            .append(dotString(execution.unit()))
            .append(" -> ")
            .append(dotString(dependency))
            .append(";\n");
      }
    }
    return out.append("}\n").toString();
  }

  public static String mermaid(DeployStack stack) {
    StringBuilder out = new StringBuilder("flowchart LR\n");
    Map<String, String> ids = new HashMap<>();
    int next = 0;
    for (PlannedExecution execution : stack.executions()) {
      ids.put(execution.unit(), "u" + next++);
    }
    int account = 0;
    for (Map.Entry<String, Set<PlannedExecution>> group : byAccount(stack).entrySet()) {
      out.append("  subgraph a")
          .append(account++)
          .append("[\"")
          .append(mermaidText(group.getKey()))
          .append("\"]\n");
      for (PlannedExecution execution : group.getValue()) {
        out.append("    ")
            .append(ids.get(execution.unit()))
            .append("[\"")
            .append(mermaidText(execution.unit()))
            .append("<br/>layer ")
            .append(execution.layer())
            .append("\"]:::")
            .append(isChanged(execution) ? "changed" : "dependent")
            .append('\n');
      }
      out.append("  end\n");
    }
    for (PlannedExecution execution : stack.executions()) {
      for (String dependency : execution.dependsOn()) {
        out.append("  ")
            .append(ids.get(execution.unit()))
            .append(" --> ")
            .append(ids.get(dependency))
            .append('\n');
      }
    }
    out.append("  classDef changed fill:#ffd7a8,stroke:#b36b00\n");
    out.append("  classDef dependent fill:#dbe9ff,stroke:#2f5d9b\n");
    return out.toString();
  }

  private static boolean isChanged(PlannedExecution execution) {
    return execution.reasons().stream().anyMatch(reason -> reason.kind() != Reason.Kind.DEPENDS_ON);
  }

  private static Map<String, Set<PlannedExecution>> byAccount(DeployStack stack) {
    Map<String, Set<PlannedExecution>> groups = new TreeMap<>();
    for (PlannedExecution execution : stack.executions()) {
      groups
          .computeIfAbsent(
              execution.account(),
              name -> new TreeSet<>(java.util.Comparator.comparing(PlannedExecution::unit)))
          .add(execution);
    }
    return groups;
  }

  private static String dotString(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Mermaid labels take HTML entities; quotes and angle brackets would end or break the label. */
  private static String mermaidText(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c)
                  || c == '/'
                  || c == '-'
                  || c == '_'
                  || c == '.'
                  || c == ' ') {
                out.appendCodePoint(c);
              } else {
                out.append("#").append(c).append(';');
              }
            });
    return out.toString();
  }
}
