package io.livegate.core.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.PlanSummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Reads the JSON that {@code terraform show -json} prints, for a saved plan and for a state.
 * terragrunt prints the same document.
 */
public final class PlanJson {
  private static final ObjectMapper MAPPER = Jackson.MAPPER;

  private PlanJson() {}

  /**
   * The plan's counts, the providers it needs that the prior state does not hold, the resources it
   * destroys, and the first of the resources it changes. A replace counts as one add and one
   * destroy.
   */
  public static PlanSummary summary(String planJson) {
    JsonNode plan = parse(planJson, "plan");
    int add = 0;
    int change = 0;
    int destroy = 0;
    Set<String> required = new TreeSet<>();
    Set<String> destroyed = new TreeSet<>();
    for (JsonNode resource : plan.path("resource_changes")) {
      if (!"managed".equals(resource.path("mode").asText())) {
        continue;
      }
      required.add(resource.path("provider_name").asText());
      List<String> actions = new ArrayList<>();
      resource.path("change").path("actions").forEach(action -> actions.add(action.asText()));
      if (actions.contains("create")) {
        add++;
      }
      if (actions.contains("delete")) {
        destroy++;
        destroyed.add(resource.path("address").asText());
      }
      if (actions.contains("update")) {
        change++;
      }
    }
    plan.path("configuration")
        .path("provider_config")
        .forEach(provider -> required.add(provider.path("full_name").asText()));
    required.remove("");
    required.removeAll(providersInState(plan.path("prior_state")));
    List<String> changes = changes(planJson);
    return new PlanSummary(
        add,
        change,
        destroy,
        List.copyOf(required),
        List.copyOf(destroyed),
        changes,
        changes.size());
  }

  /**
   * The plan's resource changes, one per changed managed resource: its full address and its
   * actions, such as {@code terraform_data.app: update} or {@code aws_instance.web: delete,create}
   * for a replace. Sorted, so two plans compare as lists.
   */
  public static List<String> changes(String planJson) {
    List<String> changes = new ArrayList<>();
    for (JsonNode resource : parse(planJson, "plan").path("resource_changes")) {
      if (!"managed".equals(resource.path("mode").asText())) {
        continue;
      }
      List<String> actions = new ArrayList<>();
      resource.path("change").path("actions").forEach(action -> actions.add(action.asText()));
      if (!actions.equals(List.of("no-op")) && !actions.equals(List.of("read"))) {
        changes.add(resource.path("address").asText() + ": " + String.join(",", actions));
      }
    }
    changes.sort(null);
    return changes;
  }

  /**
   * The full addresses (module path included) of the state's managed resources of {@code
   * providers}.
   */
  public static List<String> resourcesOf(String stateJson, Set<String> providers) {
    return addresses(
        stateJson, resource -> providers.contains(resource.path("provider_name").asText()));
  }

  /** The full addresses of every managed resource in the state. */
  public static List<String> addresses(String stateJson) {
    return addresses(stateJson, resource -> true);
  }

  private static List<String> addresses(String stateJson, Predicate<JsonNode> which) {
    List<String> addresses = new ArrayList<>();
    collect(
        parse(stateJson, "state").path("values").path("root_module"),
        resource -> {
          if (which.test(resource)) {
            addresses.add(resource.path("address").asText());
          }
        });
    addresses.sort(null);
    return addresses;
  }

  private static Set<String> providersInState(JsonNode state) {
    Set<String> providers = new TreeSet<>();
    collect(
        state.path("values").path("root_module"),
        resource -> providers.add(resource.path("provider_name").asText()));
    return providers;
  }

  private static void collect(JsonNode module, java.util.function.Consumer<JsonNode> managed) {
    for (JsonNode resource : module.path("resources")) {
      if ("managed".equals(resource.path("mode").asText())) {
        managed.accept(resource);
      }
    }
    module.path("child_modules").forEach(child -> collect(child, managed));
  }

  private static JsonNode parse(String json, String what) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (node == null || !node.isObject()) {
        throw new LivegateException("terraform show -json printed no " + what + " document");
      }
      return node;
    } catch (IOException e) {
      throw new LivegateException(
          "terraform show -json printed a " + what + " that is not JSON: " + e.getMessage(), e);
    }
  }
}
