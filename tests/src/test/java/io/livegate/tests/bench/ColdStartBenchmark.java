package io.livegate.tests.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.Vote;
import io.livegate.core.flow.VoteDesk;
import io.livegate.core.flow.VoteLinks;
import io.livegate.core.scan.DeployStack;
import io.livegate.core.scan.GraphScan;
import io.livegate.core.scan.ScanCommand;
import io.livegate.core.testing.ReferenceScenario;
import io.livegate.core.testing.TestRepo;
import io.livegate.sql.Metadb;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.Engine;
import io.livegate.sql.testing.Scenarios;
import io.livegate.statemachine.ApprovalRequest;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.PlanResult;
import io.livegate.tests.moto.MotoServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Cold starts of the three Lambda handlers, each in a fresh JVM that constructs the handler with
 * its production constructor and serves one event against moto_server and an embedded PostgreSQL,
 * against the baseline of a fresh JVM serving one event with an empty handler. See
 * docs/benchmarks.md, "Lambda cold start".
 *
 * <p>Properties: {@code bench.runs} (measured runs per probe, default 5), {@code bench.warmups}
 * (unmeasured runs per probe first, default 1), {@code bench.flags} (JVM flag sets, separated by
 * {@code |}; default the JVM's defaults and a Lambda-like set), {@code bench.moduleDir} (the tests
 * module, for the moto launcher), {@code bench.classpath} (the children's classpath; by default the
 * test classpath this main runs on).
 */
public final class ColdStartBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LAMBDA_LIKE = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto";
  private static final String VOTE_KEY = "livegate-bench-vote-link-key-0123456789abcdef";
  private static final String VOTER = "alice@example.com";
  private static final String ROLE = "arn:aws:iam::123456789012:role/livegate-flow";

  private record Probe(String label, String handler, String event) {}

  private ColdStartBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = Integer.getInteger("bench.runs", 5);
    int warmups = Integer.getInteger("bench.warmups", 1);
    List<String> flagSets =
        Arrays.stream(System.getProperty("bench.flags", "|" + LAMBDA_LIKE).split("\\|", -1))
            .map(String::strip)
            .toList();
    Path moduleDir = Path.of(System.getProperty("bench.moduleDir", ""));
    String classpath = System.getProperty("bench.classpath", testClasspath());
    String java = ProcessHandle.current().info().command().orElse("java");

    MotoServer moto = new MotoServer(moduleDir);
    moto.start("ColdStartBenchmark");
    try {
      Map<String, String> env = new LinkedHashMap<>();
      env.put("AWS_REGION", moto.region().id());
      env.put("AWS_ACCESS_KEY_ID", "test");
      env.put("AWS_SECRET_ACCESS_KEY", "test");
      env.put("LIVEGATE_AWS_ENDPOINT", moto.endpoint().toString());

      EmbeddedPostgres postgres = EmbeddedMetadb.postgres();
      try (Connection connection = postgres.getPostgresDatabase().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE DATABASE livegate_cold_start");
      }
      Metadb metadb = Metadb.open(postgres.getDatabase("postgres", "livegate_cold_start"));
      env.put("LIVEGATE_DB_URL", postgres.getJdbcUrl("postgres", "livegate_cold_start"));
      env.put("LIVEGATE_DB_USER", "postgres");
      env.put("LIVEGATE_DB_PASSWORD", "");

      String secretArn;
      String stateMachineArn;
      try (SecretsManagerClient secrets = moto.client(SecretsManagerClient.builder());
          SfnClient sfn = moto.client(SfnClient.builder());
          S3Client s3 = moto.client(S3Client.builder())) {
        secretArn =
            secrets
                .createSecret(r -> r.name("livegate/vote-link-key").secretString(VOTE_KEY))
                .arn();
        Map<DeployFlow.Substitution, String> values = new EnumMap<>(DeployFlow.Substitution.class);
        values.put(
            DeployFlow.Substitution.CLUSTER_ARN,
            "arn:aws:ecs:us-east-1:123456789012:cluster/livegate");
        values.put(
            DeployFlow.Substitution.TERRA_RUN_PLAN_TASK_DEFINITION_ARN,
            "arn:aws:ecs:us-east-1:123456789012:task-definition/terra-run-plan:1");
        values.put(
            DeployFlow.Substitution.TERRA_RUN_APPLY_TASK_DEFINITION_ARN,
            "arn:aws:ecs:us-east-1:123456789012:task-definition/terra-run-apply:1");
        values.put(DeployFlow.Substitution.TERRA_RUN_CONTAINER_NAME, "terra-run");
        values.put(DeployFlow.Substitution.SUBNET_IDS, "subnet-12345678");
        values.put(DeployFlow.Substitution.SECURITY_GROUP_IDS, "sg-12345678");
        values.put(
            DeployFlow.Substitution.APPROVAL_TOPIC_ARN,
            "arn:aws:sns:us-east-1:123456789012:livegate-approval");
        String definition = DeployFlow.render(values, 3600);
        stateMachineArn =
            sfn.createStateMachine(
                    r -> r.name("livegate-deploy-flow").definition(definition).roleArn(ROLE))
                .stateMachineArn();
        s3.createBucket(r -> r.bucket("livegate-plans"));
      }
      env.put("LIVEGATE_STATE_MACHINE_ARN", stateMachineArn);
      env.put("LIVEGATE_LOCK_PARAMETER", "/livegate/merge-lock");
      env.put("LIVEGATE_VOTE_KEY_SECRET_ARN", secretArn);
      env.put("LIVEGATE_VOTE_BASE_URL", "https://vote.example.com");
      env.put("LIVEGATE_MAIL_FROM", "livegate@example.com");
      env.put("LIVEGATE_PLAN_BUCKET", "livegate-plans");

      // A running deployment of the reference scenario, its first layer released: RUNNING
      // executions whose flows the trigger (re)starts, and which the approval handlers read.
      Engine engine = new Engine(metadb, FailurePolicy.ABORT_DEPENDENTS);
      Path repo = Files.createTempDirectory("livegate-cold-start");
      long deploymentId = engine.create.create(referenceWithVoters(repo)).deployment().id();
      List<Execution> running = engine.release.release(deploymentId);
      if (running.isEmpty()) {
        throw new IllegalStateException("the reference deployment released nothing");
      }
      Execution execution = running.get(0);
      String voter = VOTER;
      String token =
          new VoteLinks(VOTE_KEY.getBytes(StandardCharsets.UTF_8))
              .token(
                  new VoteLinks.Ballot(
                      execution.id(),
                      voter,
                      Vote.Choice.APPROVE,
                      Instant.now().plus(1, ChronoUnit.DAYS)));

      List<Probe> probes = new ArrayList<>();
      probes.add(new Probe("empty handler (baseline)", "empty", "{}"));
      probes.add(
          new Probe(
              "trigger: deploymentCreated",
              "trigger",
              "{\"deploymentCreated\":" + deploymentId + "}"));
      probes.add(new Probe("approval-request: SNS", "approval-request", snsEvent(execution)));
      probes.add(
          new Probe("approval-response: GET forged", "approval-response", voteGet("forged.x")));
      probes.add(new Probe("approval-response: GET signed", "approval-response", voteGet(token)));

      System.out.println("livegate Lambda cold-start benchmark");
      System.out.println(
          "java "
              + java
              + " ("
              + System.getProperty("java.vm.name")
              + " "
              + System.getProperty("java.version")
              + "), "
              + Runtime.getRuntime().availableProcessors()
              + " cores; "
              + runs
              + " measured runs per probe after "
              + warmups
              + " warm-up, interleaved; medians; deployment "
              + deploymentId
              + ", execution "
              + execution.id()
              + " ("
              + running.size()
              + " running)");
      for (String flags : flagSets) {
        List<String> jvmFlags = flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
        System.out.println();
        System.out.println(
            "JVM flags: " + (flags.isEmpty() ? "(none: the JVM's defaults)" : flags));
        Map<Probe, List<double[]>> samples = new LinkedHashMap<>();
        for (int run = -warmups; run < runs; run++) {
          for (Probe probe : probes) {
            double[] sample = launch(java, classpath, jvmFlags, env, probe, run == -warmups);
            if (run >= 0) {
              samples.computeIfAbsent(probe, p -> new ArrayList<>()).add(sample);
            }
          }
        }
        double baseline = median(samples.get(probes.get(0)), 0);
        System.out.println(
            String.format(
                "%-32s %9s %9s %11s %9s %9s",
                "probe", "wall ms", "best ms", "/ baseline", "to main", "in main"));
        for (Probe probe : probes) {
          List<double[]> s = samples.get(probe);
          double wall = median(s, 0);
          double best = s.stream().mapToDouble(x -> x[0]).min().orElse(0);
          System.out.println(
              String.format(
                  "%-32s %9.0f %9.0f %11.2f %9.0f %9.0f",
                  probe.label(), wall, best, wall / baseline, median(s, 1), median(s, 2)));
        }
      }
      System.out.println();
      System.out.println(
          "classes loaded per probe (one more run with -Xlog:class+load, the last flag set):");
      List<String> lastFlags =
          flagSets.get(flagSets.size() - 1).isEmpty()
              ? List.of()
              : List.of(flagSets.get(flagSets.size() - 1).split("\\s+"));
      for (Probe probe : probes) {
        Path log = Files.createTempFile("livegate-class-load", ".log");
        List<String> flags = new ArrayList<>(lastFlags);
        flags.add("-Xlog:class+load=info:file=" + log);
        launch(java, classpath, flags, env, probe, false);
        Map<String, Long> groups =
            Files.readAllLines(log).stream()
                .map(line -> line.substring(line.indexOf("] ") + 2).split(" ")[0])
                .collect(
                    Collectors.groupingBy(
                        ColdStartBenchmark::group, LinkedHashMap::new, Collectors.counting()));
        long total = groups.values().stream().mapToLong(Long::longValue).sum();
        System.out.println(
            String.format("%-32s %6d  ", probe.label(), total)
                + groups.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(7)
                    .map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining(", ")));
        Files.delete(log);
      }
    } finally {
      moto.stop();
    }
    System.exit(0);
  }

  /** One fresh JVM; answers wall ms, ms from JVM start to main, and ms in main. */
  private static double[] launch(
      String java,
      String classpath,
      List<String> jvmFlags,
      Map<String, String> env,
      Probe probe,
      boolean show)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(classpath);
    command.add(ColdStartProbe.class.getName());
    command.add(probe.handler());
    command.add(Base64.getEncoder().encodeToString(probe.event().getBytes(StandardCharsets.UTF_8)));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    long started = System.nanoTime();
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = process.waitFor();
    double wall = (System.nanoTime() - started) / 1e6;
    String line = out.lines().filter(l -> l.startsWith("probe ")).findFirst().orElse(null);
    if (exit != 0 || line == null) {
      throw new IllegalStateException(probe.label() + " exited with " + exit + ":\n" + out);
    }
    String[] parts = line.split(" ", 4);
    if (show) {
      String answer = parts[3].replaceAll("\"headers\":\\{[^}]*\\},", "");
      System.out.println(
          "  "
              + probe.label()
              + " answered: "
              + (answer.length() > 240 ? answer.substring(0, 240) + "…" : answer));
    }
    return new double[] {wall, Double.parseDouble(parts[1]), Double.parseDouble(parts[2])};
  }

  /** The reference scenario's deployment of a change to dev's global unit, with a voter. */
  private static CreateDeploymentCommand referenceWithVoters(Path dir) {
    Accounts accounts =
        Accounts.of(
            ReferenceScenario.accounts().all().stream()
                .map(
                    a ->
                        new Account(
                            a.name(),
                            a.path(),
                            a.dependsOn(),
                            List.of(VOTER),
                            1,
                            1,
                            a.planRole(),
                            a.applyRole()))
                .toList());
    try (TestRepo repo = ReferenceScenario.write(TestRepo.create(dir))) {
      String base = repo.commit("reference scenario");
      repo.touch(ReferenceScenario.DEV + "/global/main.tf");
      String head = repo.commit("pull request #7");
      DeployStack stack =
          new GraphScan(ProgressListener.silent())
              .run(
                  new ScanCommand(
                      dir,
                      base,
                      head,
                      accounts,
                      false,
                      ScanCommand.DEFAULT_FILE_PATTERN,
                      Map.of(),
                      2));
      return Scenarios.command(stack, accounts, 7, base);
    }
  }

  private static String snsEvent(Execution execution) {
    ApprovalRequest request =
        new ApprovalRequest(
            "bench-task-token-not-issued-by-step-functions",
            execution.id(),
            execution.name(),
            new PlanResult(
                "s3://livegate-plans/" + execution.name() + ".tfplan",
                "0".repeat(64),
                new io.livegate.core.deploy.PlanSummary(1, 0, 0, List.of()),
                ""));
    ObjectNode event = JSON.createObjectNode();
    ObjectNode record = event.putArray("Records").addObject();
    record.put("EventSource", "aws:sns");
    record
        .putObject("Sns")
        .put("Type", "Notification")
        .put("TopicArn", "arn:aws:sns:us-east-1:123456789012:livegate-approval")
        .put("Message", request.toJson());
    return event.toString();
  }

  private static String voteGet(String token) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("rawPath", VoteDesk.PATH);
    event.put(
        "rawQueryString",
        VoteDesk.TOKEN_PARAMETER + "=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    event.putObject("requestContext").putObject("http").put("method", "GET");
    return event.toString();
  }

  private static final List<String> GROUPS =
      List.of(
          "software.amazon.awssdk",
          "com.fasterxml.jackson",
          "org.apache.hc",
          "org.jdbi",
          "org.postgresql",
          "com.zaxxer.hikari",
          "io.livegate",
          "org.flywaydb",
          "java.",
          "javax.",
          "jdk.",
          "sun.");

  private static String group(String className) {
    for (String prefix : GROUPS) {
      if (className.startsWith(prefix)) {
        return prefix.endsWith(".") ? "JDK" : prefix;
      }
    }
    int dot = className.indexOf('.', className.indexOf('.') + 1);
    return dot < 0 ? className : className.substring(0, dot);
  }

  private static double median(List<double[]> samples, int index) {
    double[] values = samples.stream().mapToDouble(s -> s[index]).sorted().toArray();
    int middle = values.length / 2;
    return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  }

  /** The classpath this main runs on: exec:java's class loader, else java.class.path. */
  private static String testClasspath() {
    ClassLoader loader = ColdStartBenchmark.class.getClassLoader();
    if (loader instanceof URLClassLoader urls && urls.getURLs().length > 0) {
      return Arrays.stream(urls.getURLs())
          .map(ColdStartBenchmark::file)
          .collect(Collectors.joining(File.pathSeparator));
    }
    return System.getProperty("java.class.path");
  }

  private static String file(URL url) {
    try {
      return Path.of(url.toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
