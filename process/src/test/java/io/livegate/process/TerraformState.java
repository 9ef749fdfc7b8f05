package io.livegate.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.runner.Command;
import io.livegate.core.runner.CommandResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A unit's terraform state as {@code terraform show -json} prints it, outside livegate. */
public final class TerraformState {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TerraformState() {}

  /** The root module's managed resources: address to their attribute values. */
  public static Map<String, JsonNode> resources(Path unitDirectory) {
    CommandResult show =
        new ProcessCommandRunner()
            .run(
                new Command(
                    List.of("terraform", "-chdir=" + unitDirectory, "show", "-json", "-no-color"),
                    unitDirectory,
                    Map.of(),
                    Duration.ofMinutes(1)));
    if (show.exitCode() != 0) {
      throw new AssertionError("terraform show in " + unitDirectory + ":\n" + show.output());
    }
    Map<String, JsonNode> resources = new TreeMap<>();
    try {
      for (JsonNode resource :
          JSON.readTree(show.stdout()).path("values").path("root_module").path("resources")) {
        if (resource.path("mode").asText().equals("managed")) {
          resources.put(resource.path("address").asText(), resource.path("values"));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return resources;
  }

  /** The id terraform gave each resource: a new one means it was created again. */
  public static Map<String, String> ids(Path unitDirectory) {
    Map<String, String> ids = new TreeMap<>();
    resources(unitDirectory)
        .forEach((address, values) -> ids.put(address, values.path("id").asText()));
    return ids;
  }
}
