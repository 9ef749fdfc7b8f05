package io.livegate.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;

/** Reads the IAM policies of a synthesized template, role by role. */
final class Iam {
  static final ObjectMapper JSON = new ObjectMapper();

  /** One Allow statement, with Action and Resource as lists. */
  record Statement(List<String> actions, List<JsonNode> resources, JsonNode condition) {
    boolean allows(String action) {
      return actions.contains(action);
    }
  }

  private final Stack stack;
  private final JsonNode template;

  Iam(Stack stack, JsonNode template) {
    this.stack = stack;
    this.template = template;
  }

  String logicalId(software.constructs.IConstruct construct) {
    return stack.getLogicalId((CfnElement) construct.getNode().getDefaultChild());
  }

  /** Every statement of every policy attached to {@code role}. */
  List<Statement> statements(IRole role) {
    String id = logicalId(role);
    List<Statement> statements = new ArrayList<>();
    template
        .path("Resources")
        .forEach(
            resource -> {
              if (!resource.path("Type").asText().equals("AWS::IAM::Policy")) {
                return;
              }
              boolean attached = false;
              for (JsonNode ref : resource.path("Properties").path("Roles")) {
                attached |= ref.path("Ref").asText().equals(id);
              }
              if (!attached) {
                return;
              }
              for (JsonNode statement :
                  resource.path("Properties").path("PolicyDocument").path("Statement")) {
                if (!statement.path("Effect").asText().equals("Allow")) {
                  throw new AssertionError("unexpected " + statement);
                }
                List<String> actions = new ArrayList<>();
                list(statement.get("Action")).forEach(a -> actions.add(a.asText()));
                statements.add(
                    new Statement(
                        actions, list(statement.get("Resource")), statement.get("Condition")));
              }
            });
    return statements;
  }

  Set<String> actions(IRole role) {
    Set<String> actions = new TreeSet<>();
    statements(role).forEach(s -> actions.addAll(s.actions()));
    return actions;
  }

  /** The resources {@code role} may call {@code action} on, as CloudFormation JSON. */
  List<JsonNode> resources(IRole role, String action) {
    List<JsonNode> resources = new ArrayList<>();
    statements(role).stream()
        .filter(s -> s.allows(action))
        .forEach(s -> resources.addAll(s.resources()));
    return resources;
  }

  /** {@code value} (a token or a literal) as the template holds it. */
  JsonNode resolved(Object value) {
    return JSON.valueToTree(stack.resolve(value));
  }

  private static List<JsonNode> list(JsonNode node) {
    List<JsonNode> list = new ArrayList<>();
    if (node == null) {
      return list;
    }
    if (node.isArray()) {
      node.forEach(list::add);
    } else {
      list.add(node);
    }
    return list;
  }
}
