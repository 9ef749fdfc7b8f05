package io.livegate.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.Jackson;
import io.livegate.core.deploy.PlanSummary;
import java.util.List;
import java.util.Map;

/** The jsonb columns: argv lists and plan summaries. */
final class Json {
  private static final ObjectMapper MAPPER = Jackson.MAPPER;
  private static final TypeReference<List<List<String>>> COMMANDS = new TypeReference<>() {};

  private Json() {}

  static String commands(List<List<String>> commands) {
    return write(commands);
  }

  static List<List<String>> commands(String json) {
    return read(json, COMMANDS);
  }

  static String summary(PlanSummary summary) {
    return summary == null
        ? null
        : write(
            Map.of(
                "add",
                summary.add(),
                "change",
                summary.change(),
                "destroy",
                summary.destroy(),
                "newProviders",
                summary.newProviders(),
                "destroyed",
                summary.destroyed(),
                "firstChanges",
                summary.firstChanges(),
                "changedResources",
                summary.changedResources()));
  }

  static PlanSummary summary(String json) {
    if (json == null) {
      return null;
    }
    Map<String, Object> map = read(json, new TypeReference<>() {});
    @SuppressWarnings("unchecked")
    List<String> providers = (List<String>) map.get("newProviders");
    // Summaries stored before the destroyed resources were recorded have none.
    @SuppressWarnings("unchecked")
    List<String> destroyed = (List<String>) map.getOrDefault("destroyed", List.of());
    // ... and those stored before the changed resources were, none of these.
    @SuppressWarnings("unchecked")
    List<String> changes = (List<String>) map.getOrDefault("firstChanges", List.of());
    return new PlanSummary(
        (Integer) map.get("add"),
        (Integer) map.get("change"),
        (Integer) map.get("destroy"),
        providers,
        destroyed,
        changes,
        (Integer) map.getOrDefault("changedResources", 0));
  }

  private static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  private static <T> T read(String json, TypeReference<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          "the metadb holds JSON that cannot be read: " + e.getOriginalMessage(), e);
    }
  }
}
