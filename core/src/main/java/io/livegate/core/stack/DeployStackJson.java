package io.livegate.core.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.Jackson;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link DeployStack} as the JSON contract in docs/deploy-stack.md. Built field by field,
 * so that renaming a Java member can never change the contract by accident.
 */
public final class DeployStackJson {

  private DeployStackJson() {}

  public static String write(DeployStack stack) {
    ObjectNode root = Jackson.MAPPER.createObjectNode();
    root.put("schemaVersion", DeployStack.SCHEMA_VERSION);
    root.put("scan", stack.scan().name().toLowerCase(Locale.ROOT));
    root.put("base", stack.base());
    root.put("head", stack.head());
    ArrayNode accounts = root.putArray("accounts");
    for (AccountOrder account : stack.accounts()) {
      ObjectNode node = accounts.addObject();
      node.put("name", account.name());
      node.put("path", account.path());
      strings(node.putArray("dependsOn"), account.dependsOn());
    }
    ArrayNode executions = root.putArray("executions");
    for (PlannedExecution execution : stack.executions()) {
      ObjectNode node = executions.addObject();
      node.put("unit", execution.unit());
      node.put("account", execution.account());
      strings(node.putArray("dependsOn"), execution.dependsOn());
      node.put("layer", execution.layer());
      reasons(node.putArray("reasons"), execution.reasons());
    }
    ArrayNode deleted = root.putArray("deleted");
    for (DeletedUnit unit : stack.deleted()) {
      ObjectNode node = deleted.addObject();
      node.put("unit", unit.unit());
      node.put("account", unit.account());
      reasons(node.putArray("reasons"), unit.reasons());
      node.put("destroy", unit.destroy());
      strings(node.putArray("dependsOn"), unit.dependsOn());
      strings(node.putArray("formerDependents"), unit.formerDependents());
    }
    ArrayNode excluded = root.putArray("excluded");
    for (ExcludedUnit unit : stack.excluded()) {
      ObjectNode node = excluded.addObject();
      node.put("unit", unit.unit());
      node.put("account", unit.account());
      node.put("reason", unit.reason());
    }
    strings(root.putArray("warnings"), stack.warnings());
    try {
      return Jackson.INDENTED.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }

  private static void strings(ArrayNode array, List<String> values) {
    values.forEach(array::add);
  }

  private static void reasons(ArrayNode array, List<Reason> reasons) {
    for (Reason reason : reasons) {
      ObjectNode node = array.addObject();
      node.put("kind", reason.kind().id());
      if (reason.path() != null) {
        node.put("path", reason.path());
      }
      if (reason.via() != null) {
        node.put("via", reason.via());
      }
    }
  }
}
