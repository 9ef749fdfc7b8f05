package io.livegate.tests.moto;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.aws.AwsSettings;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ContainerOverride;
import software.amazon.awssdk.services.ecs.model.DesiredStatus;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A moto_server, started by {@code src/test/python/moto_launcher.py} with Step Functions executing
 * the ASL. Register it with {@code @RegisterExtension static final MotoServer MOTO = new
 * MotoServer();} and build SDK clients with {@link #client}. The test classes of one JVM share one
 * server, started by the first and stopped when the JVM's tests end: importing moto costs seconds
 * of CPU, more than a class of short tests. Each class starts on a {@link #reset} server, as the
 * tests reset it between each other.
 *
 * <p>ECS tasks never run their containers in moto, and a task stays RUNNING until it is stopped, so
 * a test plays the container's part: it reads the task's environment overrides ({@link
 * #taskEnvironment}), for example a task token, and ends the task with an exit code ({@link
 * #stopTask}).
 *
 * <p>The server's output goes to {@code target/moto/jvm-<pid>.log}, where a line {@code === <test
 * class>} marks where each class began; the tail of that log is added to every failure of a test.
 */
public final class MotoServer
    implements BeforeAllCallback, AfterAllCallback, TestExecutionExceptionHandler {
  private static final ObjectMapper EVENTS = new ObjectMapper();

  /**
   * Where the JVM's shared server is kept: the root context's store closes what it holds (an
   * AutoCloseable) when the JVM's tests end.
   */
  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(MotoServer.class);

  /** The stopped reason that moto_launcher.py reads as the exit code of the task's containers. */
  private static final String EXIT_CODE_REASON = "livegate-test exit code ";

  private static final Region REGION = Region.US_EAST_1;
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("testing", "testing"));

  /**
   * Bounds on waits for events that do come, only slower on a loaded machine: moto_server's start
   * (importing moto takes seconds on a quiet machine, several times that on a loaded one) and
   * moto's own threads (Step Functions) reaching what a test awaits. They catch a server that never
   * answers, not a slow one.
   */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration AWAIT_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
  private static final int LOG_TAIL_LINES = 40;

  /** A werkzeug access-log line of a 2xx or 3xx answer, left out of the log tail. */
  private static final Pattern SUCCESSFUL_REQUEST =
      Pattern.compile("^\\S+ - - \\[[^\\]]*\\] \".*\" [23]\\d\\d -$");

  private static final String INSTALL_HINT =
      "the moto suites need python3 on PATH with moto[server] 5.2.1 (pip install"
          + " 'moto[server]==5.2.1')";

  /** The default VPC's subnet and security group, for an awsvpc task's network configuration. */
  public record Network(String subnetId, String securityGroupId) {}

  private final HttpClient http = HttpClient.newHttpClient();
  private final Path launcher;
  private final Path logs;

  /** The server {@link #start} started for this instance alone, if any. */
  private Launched owned;

  private Path log;
  private URI endpoint;
  private SdkHttpClient sdkHttp;
  private EcsClient ecs;
  private Ec2Client ec2;
  private SfnClient sfn;

  /** A server of the tests module in the working directory, as surefire runs it. */
  public MotoServer() {
    this(Path.of(""));
  }

  /** A server of the tests module in {@code moduleDir}, for a main run from elsewhere. */
  public MotoServer(Path moduleDir) {
    Path module = moduleDir.toAbsolutePath();
    this.launcher = module.resolve(Path.of("src", "test", "python", "moto_launcher.py"));
    this.logs = module.resolve(Path.of("target", "moto"));
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    Launched launched =
        context
            .getRoot()
            .getStore(SHARED)
            .getOrComputeIfAbsent(
                Launched.class,
                key -> launchUnchecked("jvm-" + ProcessHandle.current().pid()),
                Launched.class);
    attach(launched);
    Files.writeString(
        log,
        "=== " + context.getRequiredTestClass().getName() + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
    reset();
  }

  /**
   * Starts a server of this instance's own, logging to {@code target/moto/<name>.log}; {@link
   * #stop} ends it. For a main run: test classes share the JVM's server.
   */
  public void start(String name) throws IOException, InterruptedException {
    owned = launch(name);
    attach(owned);
  }

  private Launched launchUnchecked(String name) {
    try {
      return launch(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting moto_server", e);
    }
  }

  private Launched launch(String name) throws IOException, InterruptedException {
    if (!Files.isRegularFile(launcher)) {
      throw new IllegalStateException(
          "no moto launcher at " + launcher + "; run the tests from the tests module directory");
    }
    Files.createDirectories(logs);
    Path log = logs.resolve(name + ".log");
    Files.deleteIfExists(log);
    int port = freePort();
    URI endpoint = URI.create("http://127.0.0.1:" + port);
    ProcessBuilder launch =
        new ProcessBuilder(
                "python3", launcher.toString(), "-H", "127.0.0.1", "-p", String.valueOf(port))
            .redirectErrorStream(true)
            // appended to: the classes that share the server mark their beginnings in it
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    launch.environment().put("PYTHONUNBUFFERED", "1");
    Process server;
    try {
      server = launch.start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot start python3 (" + e.getMessage() + "): " + INSTALL_HINT, e);
    }
    Launched launched = new Launched(server, endpoint, log);
    try {
      awaitAnswer(launched);
    } catch (RuntimeException | InterruptedException e) {
      launched.close();
      throw e;
    }
    return launched;
  }

  /** Points this instance at {@code launched} and builds its clients. */
  private void attach(Launched launched) {
    endpoint = launched.endpoint();
    log = launched.log();
    sdkHttp = Apache5HttpClient.builder().build();
    ecs = client(EcsClient.builder());
    ec2 = client(Ec2Client.builder());
    sfn = client(SfnClient.builder());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  /** Closes the clients, and stops the server if {@link #start} started it for this instance. */
  public void stop() {
    if (sdkHttp != null) {
      sfn.close();
      ec2.close();
      ecs.close();
      sdkHttp.close();
      sdkHttp = null;
    }
    if (owned != null) {
      owned.close();
      owned = null;
    }
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    failure.addSuppressed(new ServerLog(logTail()));
    throw failure;
  }

  public URI endpoint() {
    return endpoint;
  }

  public Region region() {
    return REGION;
  }

  public StaticCredentialsProvider credentials() {
    return CREDENTIALS;
  }

  /**
   * What an entry point's wiring reads to reach this server (region, test credentials, endpoint
   * override), as a mutable map for the test to add the entry point's own variables to.
   */
  public Map<String, String> wiringEnvironment() {
    Map<String, String> environment = new HashMap<>();
    environment.put("AWS_REGION", REGION.id());
    environment.put("AWS_ACCESS_KEY_ID", CREDENTIALS.resolveCredentials().accessKeyId());
    environment.put("AWS_SECRET_ACCESS_KEY", CREDENTIALS.resolveCredentials().secretAccessKey());
    environment.put(AwsSettings.ENDPOINT, endpoint.toString());
    return environment;
  }

  /** Builds a client of this server: its endpoint, region, test credentials and HTTP client. */
  public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C client(B builder) {
    return builder
        .endpointOverride(endpoint)
        .region(REGION)
        .credentialsProvider(CREDENTIALS)
        .httpClient(sdkHttp)
        .build();
  }

  /** Forgets every resource and execution ({@code POST /moto-api/reset}). */
  public void reset() {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint.resolve("/moto-api/reset"))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "moto reset answered " + response.statusCode() + ": " + response.body());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reset moto at " + endpoint, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while resetting moto", e);
    }
  }

  /** The default VPC's network; its ids change with every {@link #reset}. */
  public Network network() {
    String subnetId =
        ec2.describeSubnets(request -> request.filters(filter("default-for-az", "true")))
            .subnets()
            .get(0)
            .subnetId();
    String vpcId =
        ec2.describeVpcs(request -> request.filters(filter("is-default", "true")))
            .vpcs()
            .get(0)
            .vpcId();
    String securityGroupId =
        ec2.describeSecurityGroups(
                request ->
                    request.filters(filter("group-name", "default"), filter("vpc-id", vpcId)))
            .securityGroups()
            .get(0)
            .groupId();
    return new Network(subnetId, securityGroupId);
  }

  /** The cluster's tasks whose desired status is RUNNING, described. */
  public List<Task> runningTasks(String cluster) {
    List<String> taskArns =
        ecs.listTasks(request -> request.cluster(cluster).desiredStatus(DesiredStatus.RUNNING))
            .taskArns();
    if (taskArns.isEmpty()) {
      return List.of();
    }
    return ecs.describeTasks(request -> request.cluster(cluster).tasks(taskArns)).tasks();
  }

  /** Waits until the cluster runs a task and answers it; fails if it runs more than one. */
  public Task awaitRunningTask(String cluster) {
    return await(
        "a running task in " + cluster,
        () -> {
          List<Task> running = runningTasks(cluster);
          if (running.size() > 1) {
            throw new AssertionError(
                "expected one running task in " + cluster + ", found " + running.size());
          }
          return running.stream().findFirst();
        });
  }

  /**
   * The environment that the task's container overrides set, for example the task token that a
   * {@code ecs:runTask.waitForTaskToken} state passes; all containers' overrides together.
   */
  public Map<String, String> taskEnvironment(String cluster, String taskArn) {
    Task task =
        ecs.describeTasks(request -> request.cluster(cluster).tasks(taskArn)).tasks().get(0);
    return task.overrides().containerOverrides().stream()
        .map(ContainerOverride::environment)
        .flatMap(List::stream)
        .collect(
            Collectors.toMap(
                KeyValuePair::name,
                KeyValuePair::value,
                (first, second) -> second,
                LinkedHashMap::new));
  }

  /**
   * Stops the task as if its essential container had exited with {@code exitCode}: the reason is
   * {@code "livegate-test exit code <exitCode>"}, which the patched {@code ecs:runTask.sync}
   * integration reads. A non-zero exit code fails the state with {@code States.TaskFailed}, so its
   * Retry and Catch apply, as on AWS.
   */
  public void stopTask(String cluster, String taskArn, int exitCode) {
    ecs.stopTask(
        request -> request.cluster(cluster).task(taskArn).reason(EXIT_CODE_REASON + exitCode));
  }

  /**
   * EventBridge's "ECS Task State Change" for a task that {@link #stopTask} stopped, from the task
   * as ECS describes it: what the StoppedTasks rule delivers to the trigger. moto records no
   * container exit codes, so the container's is given, as the container's player knows it.
   */
  public ObjectNode stoppedTaskEvent(String cluster, String taskArn, int exitCode) {
    Task task =
        ecs.describeTasks(request -> request.cluster(cluster).tasks(taskArn)).tasks().get(0);
    ObjectNode event = EVENTS.createObjectNode();
    event.put("detail-type", RuntimeContract.Events.TASK_STATE_CHANGE);
    event.put("source", "aws.ecs");
    ObjectNode detail = event.putObject("detail");
    detail.put("clusterArn", cluster);
    detail.put("taskArn", task.taskArn());
    detail.put("lastStatus", "STOPPED");
    detail.put("startedBy", task.startedBy());
    detail.put("stoppedReason", task.stoppedReason());
    detail.putArray("containers").addObject().put("exitCode", exitCode);
    ContainerOverride taskOverride = task.overrides().containerOverrides().get(0);
    ObjectNode override = detail.putObject("overrides").putArray("containerOverrides").addObject();
    ArrayNode command = override.putArray("command");
    taskOverride.command().forEach(command::add);
    ArrayNode environment = override.putArray("environment");
    taskOverride
        .environment()
        .forEach(
            pair -> environment.addObject().put("name", pair.name()).put("value", pair.value()));
    return event;
  }

  /** Waits until the execution is no longer RUNNING and answers its description. */
  public DescribeExecutionResponse awaitExecutionEnd(String executionArn) {
    return await(
        "the end of execution " + executionArn,
        () ->
            Optional.of(sfn.describeExecution(request -> request.executionArn(executionArn)))
                .filter(execution -> execution.status() != ExecutionStatus.RUNNING));
  }

  /** Polls {@code probe} until it answers a value, for at most {@link #AWAIT_TIMEOUT}. */
  public <T> T await(String awaited, Supplier<Optional<T>> probe) {
    Instant deadline = Instant.now().plus(AWAIT_TIMEOUT);
    while (true) {
      Optional<T> value = probe.get();
      if (value.isPresent()) {
        return value.get();
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("no " + awaited + " within " + AWAIT_TIMEOUT);
      }
      pause();
    }
  }

  /** The last lines of the server's output. */
  public String logTail() {
    if (log == null || !Files.isRegularFile(log)) {
      return "(no moto_server log)";
    }
    try {
      List<String> lines =
          Files.readAllLines(log, StandardCharsets.UTF_8).stream()
              .filter(line -> !SUCCESSFUL_REQUEST.matcher(line).matches())
              .collect(Collectors.toList());
      return "moto_server log "
          + log
          + ", last lines but successful requests:\n"
          + String.join(
              "\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  private void awaitAnswer(Launched launched) throws InterruptedException {
    Process server = launched.server();
    URI endpoint = launched.endpoint();
    log = launched.log();
    HttpRequest probe = HttpRequest.newBuilder(endpoint.resolve("/moto-api/")).GET().build();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    IOException lastProbe = null;
    while (Instant.now().isBefore(deadline)) {
      if (!server.isAlive()) {
        throw new IllegalStateException(
            "moto_server exited with code "
                + server.exitValue()
                + " before answering on "
                + endpoint
                + "; "
                + INSTALL_HINT
                + "\n"
                + logTail());
      }
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (ConnectException notListeningYet) {
        // the server is still starting
      } catch (IOException e) {
        // listening but not answering yet: on a loaded machine the server closed a probe without
        // a response while it started ("header parser received no bytes"); it still runs, so ask
        // again (a server that cannot bind its port exits, and the check above reports it)
        lastProbe = e;
      }
      pause();
    }
    throw new IllegalStateException(
        "moto_server did not answer on "
            + endpoint
            + " within "
            + START_TIMEOUT
            + (lastProbe == null ? "" : " (last probe: " + lastProbe + ")")
            + "\n"
            + logTail(),
        lastProbe);
  }

  /** A running moto_server: its process, where it answers, where it logs. */
  private record Launched(Process server, URI endpoint, Path log) implements AutoCloseable {
    /** Stops python3 and what it started: pyenv's python3 shim runs the interpreter as a child. */
    @Override
    public void close() {
      List<ProcessHandle> tree =
          Stream.concat(server.descendants(), Stream.of(server.toHandle()))
              .collect(Collectors.toList());
      tree.forEach(ProcessHandle::destroy);
      Instant deadline = Instant.now().plus(STOP_TIMEOUT);
      while (tree.stream().anyMatch(ProcessHandle::isAlive) && Instant.now().isBefore(deadline)) {
        pause();
      }
      tree.forEach(ProcessHandle::destroyForcibly);
    }
  }

  private static Filter filter(String name, String value) {
    return Filter.builder().name(name).values(value).build();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while polling moto", e);
    }
  }

  /** Carries the server log's tail on a failed test, as a suppressed exception. */
  private static final class ServerLog extends RuntimeException {
    ServerLog(String tail) {
      super(tail, null, false, false);
    }
  }
}
