package io.livegate.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium for the browser tests: one {@code node src/test/js/vote-page.mjs --steps}
 * process, driven one JSON step at a time so that a test can look at the metadb between steps.
 */
final class HeadlessBrowser implements AutoCloseable {
  static final Path SCRIPTS = Path.of("src", "test", "js").toAbsolutePath();
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a livegate page shows, by the ids the pages give their parts; null where absent. */
  record Page(
      int status,
      String title,
      String heading,
      String unit,
      String summary,
      String plan,
      String result,
      String confirm,
      String deploymentStatus,
      List<Box> units,
      List<List<String>> votes,
      String consoleLink) {}

  /** One {@code g.unit} of the status page's SVG. */
  record Box(String unit, String status, boolean visible) {}

  private final Process node;
  private final Writer steps;
  private final BufferedReader answers;
  private final Path errors;

  private HeadlessBrowser(Process node, Path errors) {
    this.node = node;
    this.errors = errors;
    this.steps = node.outputWriter(StandardCharsets.UTF_8);
    this.answers =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
  }

  /**
   * Fails saying how to install what the browser tests need: a machine without Chromium must not
   * pass them by skipping them.
   */
  static void requireInstalled() {
    List<String> missing = new ArrayList<>();
    if (!Files.isExecutable(CHROMIUM)) {
      missing.add(CHROMIUM + " (apt-get install -y chromium)");
    }
    if (!onPath("node")) {
      missing.add("node on PATH");
    }
    if (!Files.isRegularFile(SCRIPTS.resolve("node_modules/axe-core/package.json"))) {
      missing.add("axe-core in " + SCRIPTS.resolve("node_modules") + " (npm ci)");
    }
    if (!Files.isRegularFile(SCRIPTS.resolve("node_modules/playwright-core/package.json"))) {
      missing.add("playwright-core in " + SCRIPTS.resolve("node_modules") + " (npm ci)");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "the browser tests need "
              + String.join(", ", missing)
              + "; run .ci/run, which installs them, or select the other tests with"
              + " -DexcludedGroups=browser");
    }
  }

  /**
   * Starts the browser, or fails saying how to install it: a machine without Chromium must not pass
   * these tests by skipping them.
   */
  static HeadlessBrowser start(Path workDirectory) {
    requireInstalled();
    try {
      Files.createDirectories(workDirectory);
      Path errors = workDirectory.resolve("node-stderr.log");
      Process node =
          new ProcessBuilder("node", "vote-page.mjs", "--steps")
              .directory(SCRIPTS.toFile())
              .redirectError(errors.toFile())
              .start();
      return new HeadlessBrowser(node, errors);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start node: " + e.getMessage(), e);
    }
  }

  /**
   * Runs console-page.mjs on the named pages ({@code NAME=URL}, each a GET that changes nothing) at
   * 390 and 1,400 px wide, each in a fresh page: by {@code NAME@WIDTH}, whether it scrolls
   * sideways, the unit names cut off, the serious and critical axe-core violations, the log, and
   * the screenshot it left in {@code shots} ({@code console-NAME-WIDTH.png}).
   */
  static Map<String, JsonNode> layoutAndAccessibility(Path shots, String... pages)
      throws IOException, InterruptedException {
    requireInstalled();
    Files.createDirectories(shots);
    List<String> command =
        new ArrayList<>(
            List.of(
                "node",
                SCRIPTS.resolve("console-page.mjs").toString(),
                shots.toAbsolutePath().toString(),
                "390,1400"));
    command.addAll(List.of(pages));
    Process node =
        new ProcessBuilder(command)
            .directory(SCRIPTS.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (node.waitFor() != 0) {
      throw new IllegalStateException("console-page.mjs failed:\n" + out);
    }
    Map<String, JsonNode> results = new HashMap<>();
    for (String line : out.split("\n")) {
      if (!line.isBlank()) {
        JsonNode page = JSON.readTree(line);
        results.put(page.get("name").asText() + "@" + page.get("width").asInt(), page);
      }
    }
    return results;
  }

  Page open(String tab, String url) {
    return page(step("open", tab).put("url", url));
  }

  /** Clicks {@code selector} and answers the page its form submission leads to. */
  Page click(String tab, String selector) {
    return page(step("click", tab).put("selector", selector));
  }

  /** Types {@code text} into the form field at {@code selector}. */
  Page fill(String tab, String selector, String text) {
    return page(step("fill", tab).put("selector", selector).put("text", text));
  }

  void screenshot(String tab, Path file) {
    send(step("screenshot", tab).put("path", file.toAbsolutePath().toString()));
  }

  @Override
  public void close() throws InterruptedException {
    try {
      steps.write("{\"do\":\"quit\"}\n");
      steps.close();
    } catch (IOException ignored) {
      // node already exited; it is stopped below either way
    }
    if (!node.waitFor(20, TimeUnit.SECONDS)) {
      node.destroyForcibly();
    }
  }

  private static ObjectNode step(String action, String tab) {
    return JSON.createObjectNode().put("do", action).put("tab", tab);
  }

  private Page page(ObjectNode step) {
    JsonNode answer = send(step);
    List<Box> boxes = new ArrayList<>();
    answer
        .path("units")
        .forEach(
            box ->
                boxes.add(
                    new Box(
                        text(box, "unit"), text(box, "status"), box.path("visible").asBoolean())));
    return new Page(
        answer.path("status").asInt(),
        text(answer, "title"),
        text(answer, "heading"),
        text(answer, "unit"),
        text(answer, "summary"),
        text(answer, "plan"),
        text(answer, "result"),
        text(answer, "confirm"),
        text(answer, "deploymentStatus"),
        boxes,
        rows(answer.path("votes")),
        text(answer, "consoleLink"));
  }

  private JsonNode send(ObjectNode step) {
    try {
      steps.write(JSON.writeValueAsString(step) + "\n");
      steps.flush();
      String line = answers.readLine();
      if (line == null) {
        throw new IllegalStateException(
            "the browser script ended early:\n" + Files.readString(errors));
      }
      JsonNode answer = JSON.readTree(line);
      if (!answer.path("ok").asBoolean()) {
        throw new IllegalStateException(
            "browser step " + step + " failed: " + answer.path("error").asText());
      }
      return answer;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot talk to the browser script: " + e.getMessage(), e);
    }
  }

  private static List<List<String>> rows(JsonNode table) {
    List<List<String>> rows = new ArrayList<>();
    table.forEach(
        row -> {
          List<String> cells = new ArrayList<>();
          row.forEach(cell -> cells.add(cell.asText()));
          rows.add(cells);
        });
    return rows;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static boolean onPath(String program) {
    for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
        return true;
      }
    }
    return false;
  }
}
