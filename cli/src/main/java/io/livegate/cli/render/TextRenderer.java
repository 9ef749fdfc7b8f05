package io.livegate.cli.render;

import io.livegate.core.Printable;
import io.livegate.core.stack.DeletedUnit;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.ExcludedUnit;
import io.livegate.core.stack.PlannedExecution;
import io.livegate.core.stack.Reason;
import java.util.stream.Collectors;

/**
 * The deploy stack for people: layer by layer, each unit with why it is there. Unit paths, file
 * names and warnings come from the repository: each is one line, escaped ({@link Printable}).
 */
public final class TextRenderer {
  private TextRenderer() {}

  public static String render(DeployStack stack) {
    StringBuilder out = new StringBuilder();
    String range =
        stack.base() == null
            ? "all units at " + shortSha(stack.head())
            : shortSha(stack.base()) + ".." + shortSha(stack.head());
    out.append(stack.scan().name().toLowerCase(java.util.Locale.ROOT))
        .append(" scan of ")
        .append(range)
        .append(": ")
        .append(stack.executions().size())
        .append(stack.executions().size() == 1 ? " unit" : " units")
        .append(" in ")
        .append(stack.layerCount())
        .append(stack.layerCount() == 1 ? " layer" : " layers");
    if (!stack.deleted().isEmpty()) {
      out.append(", ").append(stack.deleted().size()).append(" deleted");
    }
    if (!stack.excluded().isEmpty()) {
      out.append(", ").append(stack.excluded().size()).append(" left out");
    }
    out.append('\n');
    int layer = -1;
    for (PlannedExecution execution : stack.executions()) {
      if (execution.layer() != layer) {
        layer = execution.layer();
        out.append("\nlayer ").append(layer).append('\n');
      }
      out.append("  ")
          .append(Printable.escape(execution.unit()))
          .append("  [")
          .append(execution.account())
          .append("]\n");
      for (Reason reason : execution.reasons()) {
        out.append("      ").append(Printable.escape(reason.describe())).append('\n');
      }
    }
    if (!stack.deleted().isEmpty()) {
      out.append(
          "\ndeleted (a moved unit is a delete plus an add: destroyed at its old path, created at its"
              + " new one, unless its state is moved first)\n");
      for (DeletedUnit unit : stack.deleted()) {
        out.append("  ")
            .append(Printable.escape(unit.unit()))
            .append("  [")
            .append(unit.account())
            .append("]  ")
            .append(
                unit.destroy()
                    ? "DESTROYED after a vote, planned from the base commit"
                    : "reported only (destroy_deleted = false): its resources stay")
            .append('\n');
        if (!unit.dependsOn().isEmpty()) {
          out.append("      destroyed before ")
              .append(Printable.escape(String.join(", ", unit.dependsOn())))
              .append('\n');
        }
        out.append("      ")
            .append(
                Printable.escape(
                    unit.reasons().stream().map(Reason::path).collect(Collectors.joining(", "))))
            .append('\n');
      }
    }
    if (!stack.excluded().isEmpty()) {
      out.append("\nleft out by their configs\n");
      for (ExcludedUnit unit : stack.excluded()) {
        out.append("  ")
            .append(Printable.escape(unit.unit()))
            .append("  [")
            .append(unit.account())
            .append("]  ")
            .append(Printable.escape(unit.reason()))
            .append('\n');
      }
    }
    if (!stack.warnings().isEmpty()) {
      out.append("\nwarnings\n");
      stack
          .warnings()
          .forEach(warning -> out.append("  ").append(Printable.escape(warning)).append('\n'));
    }
    return out.toString();
  }

  private static String shortSha(String sha) {
    return sha.length() > 12 ? sha.substring(0, 12) : sha;
  }
}
