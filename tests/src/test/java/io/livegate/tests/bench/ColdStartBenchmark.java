package io.livegate.tests.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Account;
import io.livegate.core.account.Accounts;
import io.livegate.core.deploy.CreateDeploymentCommand;
import io.livegate.core.deploy.Execution;
import io.livegate.core.deploy.FailurePolicy;
import io.livegate.core.deploy.PlanSummary;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.unit.PlanStore;
import io.livegate.core.vote.Vote;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.scan.GraphScan;
import io.livegate.scan.ScanCommand;
import io.livegate.scan.testing.ReferenceScenario;
import io.livegate.scan.testing.TestRepo;
import io.livegate.sql.Metadb;
import io.livegate.sql.testing.EmbeddedMetadb;
import io.livegate.sql.testing.Scenarios;
import io.livegate.sql.testing.TestEngine;
import io.livegate.statemachine.ApprovalRequest;
import io.livegate.statemachine.DeployFlow;
import io.livegate.statemachine.PlanResult;
import io.livegate.statemachine.RuntimeContract;
import io.livegate.tests.moto.MotoServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.URL;
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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sesv2.SesV2Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Cold starts of the Lambda handlers, each in a fresh JVM that constructs the handler with its
 * production constructor and serves one event against moto_server and an embedded PostgreSQL,
 * against the baseline of a fresh JVM serving one event with an empty handler. See
 * docs/benchmarks.md, "Lambda cold start".
 *
 * <p>The children run on what a Lambda deployment package holds: the lambdas module and its runtime
 * dependencies ({@code bench.lambdaClasspath}, a file the lambdas module writes in the {@code
 * cold-start} and {@code bench} profiles), plus the probe. Directories on that classpath (a reactor
 * build's {@code target/classes}) are packed into jars first, as in the package, and because CDS
 * archives only classes from jars.
 *
 * <p>Properties: {@code bench.runs} (measured runs per probe, default 5), {@code bench.warmups}
 * (unmeasured runs per probe first, default 1), {@code bench.flags} (JVM flag sets, separated by
 * {@code |}; default Lambda's own flags for java17 and java21, then the JVM's defaults), {@code
 * bench.appcds} (true by default: each flag set again with an AppCDS archive per probe, the
 * baseline included), {@code bench.moduleDir} (the tests module), {@code bench.classpath} (the
 * children's classpath instead of the lambdas module's), {@code bench.aotJava} (the java of a JDK
 * 25 or later for the AOT-cache tables; by default the newest under /usr/lib/jvm; {@code none}
 * skips them), {@code bench.hold} (a directory: set up moto and the metadb, write a script there to
 * run the probes by hand, and wait).
 */
public final class ColdStartBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What the Lambda java17 and java21 runtimes run the JVM with: tiered compilation stopped at C1
   * and the serial collector ("Customize Java runtime startup behavior for Lambda functions",
   * docs.aws.amazon.com/lambda/latest/dg/java-customization.html).
   */
  static final String LAMBDA_FLAGS =
      "-XX:+TieredCompilation -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  private static final List<String> LAMBDA_FLAG_LIST = List.of(LAMBDA_FLAGS.split(" "));

  private static final String VOTE_KEY = "livegate-bench-vote-link-key-0123456789abcdef";
  private static final String VOTER = "alice@example.com";
  private static final String WEBHOOK_SECRET = "livegate-bench-webhook-secret";
  private static final String ROLE = "arn:aws:iam::123456789012:role/livegate-flow";
  private static final String PLAN_TEXT =
      """
      Terraform will perform the following actions:

        # terraform_data.global will be created
        + resource "terraform_data" "global" {
            + id     = (known after apply)
            + output = (known after apply)
          }

      Plan: 1 to add, 0 to change, 0 to destroy.
      """;

  private record Probe(String label, String handler, String event) {}

  private ColdStartBenchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = Integer.getInteger("bench.runs", 5);
    int warmups = Integer.getInteger("bench.warmups", 1);
    List<String> flagSets =
        Arrays.stream(System.getProperty("bench.flags", LAMBDA_FLAGS + "|").split("\\|", -1))
            .map(String::strip)
            .toList();
    boolean appCds = Boolean.parseBoolean(System.getProperty("bench.appcds", "true"));
    Path moduleDir = Path.of(System.getProperty("bench.moduleDir", "")).toAbsolutePath();
    Path work = moduleDir.resolve("target/cold-start");
    String classpath = childClasspath(work.resolve("jars"));
    String java = ProcessHandle.current().info().command().orElse("java");

    MotoServer moto = new MotoServer(moduleDir);
    moto.start("ColdStartBenchmark");
    try {
      Map<String, String> env = moto.wiringEnvironment();

      EmbeddedPostgres postgres = EmbeddedMetadb.postgres();
      try (Connection connection = postgres.getPostgresDatabase().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE DATABASE livegate_cold_start");
      }
      Metadb metadb = Metadb.open(postgres.getDatabase("postgres", "livegate_cold_start"));
      env.put("LIVEGATE_DB_URL", postgres.getJdbcUrl("postgres", "livegate_cold_start"));

      String secretArn;
      String webhookSecretArn;
      String stateMachineArn;
      try (SecretsManagerClient secrets = moto.client(SecretsManagerClient.builder());
          SfnClient sfn = moto.client(SfnClient.builder());
          S3Client s3 = moto.client(S3Client.builder())) {
        secretArn =
            secrets
                .createSecret(r -> r.name("livegate/vote-link-key").secretString(VOTE_KEY))
                .arn();
        webhookSecretArn =
            secrets
                .createSecret(r -> r.name("livegate/webhook-secret").secretString(WEBHOOK_SECRET))
                .arn();
        // As in production: the metadb's credentials are the RDS secret's JSON, read on first use.
        env.put(
            "LIVEGATE_DB_SECRET_ARN",
            secrets
                .createSecret(
                    r ->
                        r.name("livegate/metadb")
                            .secretString("{\"username\":\"postgres\",\"password\":\"\"}"))
                .arn());
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
      // The trigger starts the next deployment's create-deploy-stack; the event below starts none.
      env.put("LIVEGATE_CLUSTER_ARN", "arn:aws:ecs:us-east-1:123456789012:cluster/livegate");
      env.put("LIVEGATE_SUBNET_IDS", "subnet-12345678");
      env.put("LIVEGATE_SECURITY_GROUP_IDS", "sg-12345678");
      env.put(
          "LIVEGATE_CREATE_DEPLOY_STACK_TASK_DEFINITION",
          "arn:aws:ecs:us-east-1:123456789012:task-definition/create-deploy-stack:1");
      env.put("LIVEGATE_VOTE_KEY_SECRET_ARN", secretArn);
      env.put("LIVEGATE_VOTE_BASE_URL", "https://vote.example.com");
      env.put("LIVEGATE_MAIL_FROM", "livegate@example.com");
      env.put("LIVEGATE_PLAN_BUCKET", "livegate-plans");
      env.put(RuntimeContract.Webhook.WEBHOOK_SECRET, webhookSecretArn);
      env.put(RuntimeContract.Webhook.REPOSITORY, "example/live");
      env.put(
          RuntimeContract.PullRequestPlans.TASK_DEFINITION,
          "arn:aws:ecs:us-east-1:123456789012:task-definition/pr-plan-dispatch:1");

      // A running deployment of the reference scenario, its first layer released: RUNNING
      // executions whose flows the trigger (re)starts, and which the approval handlers read.
      TestEngine engine = new TestEngine(metadb, FailurePolicy.ABORT_DEPENDENTS);
      Path repo = Files.createTempDirectory("livegate-cold-start");
      long deploymentId = engine.create.create(referenceWithVoters(repo)).deployment().id();
      List<Execution> running = engine.release.release(deploymentId);
      if (running.isEmpty()) {
        throw new IllegalStateException("the reference deployment released nothing");
      }
      Execution execution = running.get(0);
      // Planned, as when RequestApproval runs: approval-request mails the voter through SES, and
      // the signed GET shows the plan's text from S3.
      String planKey = PlanStore.reference(execution);
      metadb
          .executions()
          .recordPlan(execution.id(), planKey, "0".repeat(64), new PlanSummary(1, 0, 0, List.of()));
      try (S3Client s3 = moto.client(S3Client.builder());
          SesV2Client ses = moto.client(SesV2Client.builder())) {
        s3.putObject(
            r -> r.bucket("livegate-plans").key(planKey + ".txt"),
            RequestBody.fromString(PLAN_TEXT, StandardCharsets.UTF_8));
        ses.createEmailIdentity(r -> r.emailIdentity("livegate@example.com"));
      }
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
      probes.add(new Probe("floor: default TLS context", "tls-floor", "{}"));
      probes.add(new Probe("floor: 1 SDK client, 1 call", "sdk-floor", "{}"));
      probes.add(
          new Probe(
              "trigger: deploymentCreated",
              "trigger",
              "{\"deploymentCreated\":" + deploymentId + "}"));
      probes.add(new Probe("approval-request: SNS", "approval-request", snsEvent(execution)));
      probes.add(
          new Probe("approval-response: GET forged", "approval-response", voteGet("forged.x")));
      probes.add(new Probe("approval-response: GET signed", "approval-response", voteGet(token)));
      probes.add(new Probe("webhook: signed ping", "webhook", webhookPing()));

      String hold = System.getProperty("bench.hold", "");
      if (!hold.isEmpty()) {
        hold(Path.of(hold), java, classpath, env, probes);
        return;
      }

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
      System.out.println(
          "children: " + classpath.split(File.pathSeparator).length + " jars on the classpath");
      Path archives = work.resolve("cds");
      for (int set = 0; set < flagSets.size(); set++) {
        String flags = flagSets.get(set);
        List<String> jvmFlags = flags.isEmpty() ? List.of() : List.of(flags.split("\\s+"));
        Map<Probe, List<String>> plain = sameFlags(probes, jvmFlags);
        measure(
            "JVM flags: " + (flags.isEmpty() ? "(none: the JVM's defaults)" : flags),
            java,
            classpath,
            env,
            probes,
            plain,
            runs,
            warmups);
        if (appCds) {
          Map<Probe, List<String>> shared =
              train(
                  StartupArchive.APP_CDS,
                  java,
                  classpath,
                  jvmFlags,
                  env,
                  probes,
                  archives.resolve("flags" + set));
          measure(
              "JVM flags: "
                  + (flags.isEmpty() ? "" : flags + " ")
                  + "-XX:SharedArchiveFile=<the probe's own AppCDS archive>",
              java,
              classpath,
              env,
              probes,
              shared,
              runs,
              warmups);
          if (set == 0) {
            classCounts(
                "classes loaded per probe, "
                    + (flags.isEmpty() ? "JVM defaults" : flags)
                    + ", with its AppCDS archive (one more run with -Xlog:class+load):",
                java,
                classpath,
                env,
                probes,
                shared);
          }
        }
        if (set == 0) {
          classCounts(
              "classes loaded per probe, "
                  + (flags.isEmpty() ? "JVM defaults" : flags)
                  + " (one more run with -Xlog:class+load):",
              java,
              classpath,
              env,
              probes,
              plain);
        }
      }
      String aotJava = aotJava();
      if (aotJava.isEmpty()) {
        System.out.println();
        System.out.println(
            "AOT cache: no JDK 25 or later found under /usr/lib/jvm; set -Dbench.aotJava to the"
                + " java of one to measure it");
      } else if (!aotJava.equals("none")) {
        aotCaches(aotJava, classpath, env, probes, work.resolve("aot"), runs, warmups);
      }
      // What SnapStart leaves on the request path, its restore aside: the handler is constructed
      // and primed (beforeCheckpoint) outside the event's time, on the functions' JDK if found.
      String runtimeJava = aotJava.isEmpty() || aotJava.equals("none") ? java : aotJava;
      List<String> primed = new ArrayList<>(LAMBDA_FLAG_LIST);
      primed.add("-D" + ColdStartProbe.PRIMED + "=true");
      measure(
          "java "
              + runtimeJava
              + ", JVM flags: "
              + String.join(" ", primed)
              + " (priming before the event: read the event column)",
          runtimeJava,
          classpath,
          env,
          probes,
          sameFlags(probes, primed),
          runs,
          warmups);
    } finally {
      moto.stop();
    }
    System.exit(0);
  }

  /** Runs every probe {@code warmups + runs} times, interleaved, and prints the medians. */
  private static void measure(
      String title,
      String java,
      String classpath,
      Map<String, String> env,
      List<Probe> probes,
      Map<Probe, List<String>> flags,
      int runs,
      int warmups)
      throws IOException, InterruptedException {
    System.out.println();
    System.out.println(title + "  (load average before: " + loadAverage() + ")");
    Map<Probe, List<double[]>> samples = new LinkedHashMap<>();
    for (int run = -warmups; run < runs; run++) {
      for (Probe probe : probes) {
        double[] sample = launch(java, classpath, flags.get(probe), env, probe, run == -warmups);
        if (run >= 0) {
          samples.computeIfAbsent(probe, p -> new ArrayList<>()).add(sample);
        }
      }
    }
    double baseline = median(samples.get(probes.get(0)), 0);
    System.out.println(
        String.format(
            "%-32s %9s %9s %11s %9s %9s %9s",
            "probe", "wall ms", "best ms", "/ baseline", "to main", "in main", "event"));
    for (Probe probe : probes) {
      List<double[]> s = samples.get(probe);
      double wall = median(s, 0);
      double best = s.stream().mapToDouble(x -> x[0]).min().orElse(0);
      System.out.println(
          String.format(
              "%-32s %9.0f %9.0f %11.2f %9.0f %9.0f %9.0f",
              probe.label(),
              wall,
              best,
              wall / baseline,
              median(s, 1),
              median(s, 2),
              median(s, 3)));
    }
    System.out.println("(load average after: " + loadAverage() + ")");
  }

  /**
   * A per-probe file of the JVM's startup state, and its flags: written by a training run (the same
   * fresh JVM and event), used by the measured runs, and checked once with the flag that makes the
   * JVM fail, rather than run without it silently, if it cannot be used.
   */
  private record StartupArchive(String kind, String write, String use, String strict) {
    /** JDK 17's dynamic AppCDS archive, written at exit; {@code -Xshare:auto} ignores a bad one. */
    static final StartupArchive APP_CDS =
        new StartupArchive(
            "AppCDS archive", "-XX:ArchiveClassesAtExit=", "-XX:SharedArchiveFile=", "-Xshare:on");

    /** JDK 25's AOT cache (JEP 483 and 515), in the one-step form of JEP 514. */
    static final StartupArchive AOT_CACHE =
        new StartupArchive("AOT cache", "-XX:AOTCacheOutput=", "-XX:AOTCache=", "-XX:AOTMode=on");
  }

  private static Map<Probe, List<String>> sameFlags(List<Probe> probes, List<String> jvmFlags) {
    Map<Probe, List<String>> flags = new LinkedHashMap<>();
    probes.forEach(probe -> flags.put(probe, jvmFlags));
    return flags;
  }

  /**
   * Trains each probe's own archive into {@code dir} ({@code probe<i>}); answers each probe's flags
   * that use it.
   */
  private static Map<Probe, List<String>> train(
      StartupArchive kind,
      String java,
      String classpath,
      List<String> jvmFlags,
      Map<String, String> env,
      List<Probe> probes,
      Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Map<Probe, List<String>> flags = new LinkedHashMap<>();
    for (int i = 0; i < probes.size(); i++) {
      flags.put(
          probes.get(i),
          train(kind, java, classpath, jvmFlags, env, probes.get(i), dir.resolve("probe" + i)));
    }
    return flags;
  }

  /** Trains {@code probe}'s archive into {@code file}; answers the flags that use it. */
  private static List<String> train(
      StartupArchive kind,
      String java,
      String classpath,
      List<String> jvmFlags,
      Map<String, String> env,
      Probe probe,
      Path file)
      throws IOException, InterruptedException {
    Files.deleteIfExists(file);
    List<String> record = new ArrayList<>(jvmFlags);
    record.add(kind.write() + file);
    launch(java, classpath, record, env, probe, false);
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException("no " + kind.kind() + " was written for " + probe.label());
    }
    List<String> use = new ArrayList<>(jvmFlags);
    use.add(kind.use() + file);
    List<String> check = new ArrayList<>(use);
    check.add(kind.strict());
    launch(java, classpath, check, env, probe, false);
    return use;
  }

  /**
   * Lambda's flags on a JDK 25 or later, without and then with each probe's own AOT cache (JEP 483
   * and 515: classes loaded and linked, and method profiles, from a training run), the baseline
   * included. Lambda's java25 runtime runs such a JDK.
   */
  private static void aotCaches(
      String java,
      String classpath,
      Map<String, String> env,
      List<Probe> probes,
      Path caches,
      int runs,
      int warmups)
      throws IOException, InterruptedException {
    measure(
        "java " + java + ", JVM flags: " + LAMBDA_FLAGS,
        java,
        classpath,
        env,
        probes,
        sameFlags(probes, LAMBDA_FLAG_LIST),
        runs,
        warmups);
    Map<Probe, List<String>> cached =
        train(StartupArchive.AOT_CACHE, java, classpath, LAMBDA_FLAG_LIST, env, probes, caches);
    measure(
        "java "
            + java
            + ", JVM flags: "
            + LAMBDA_FLAGS
            + " -XX:AOTCache=<the probe's own AOT cache>",
        java,
        classpath,
        env,
        probes,
        cached,
        runs,
        warmups);
  }

  /**
   * The java of a JDK 25 or later: {@code bench.aotJava} if set ({@code none} skips the AOT-cache
   * tables), else the newest such JDK under /usr/lib/jvm, else empty.
   */
  private static String aotJava() throws IOException {
    String given = System.getProperty("bench.aotJava", "");
    if (!given.isEmpty()) {
      return given;
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return "";
    }
    String newest = "";
    int newestMajor = 24;
    try (var homes = Files.list(jvms)) {
      for (Path home : homes.sorted().toList()) {
        Path release = home.resolve("release");
        Path java = home.resolve("bin/java");
        if (Files.isRegularFile(release) && Files.isExecutable(java)) {
          int major = majorVersion(Files.readAllLines(release));
          if (major > newestMajor) {
            newestMajor = major;
            newest = java.toString();
          }
        }
      }
    }
    return newest;
  }

  /** The major version in a JDK's {@code release} file ({@code JAVA_VERSION="25.0.3"}), or 0. */
  private static int majorVersion(List<String> release) {
    for (String line : release) {
      if (line.startsWith("JAVA_VERSION=\"")) {
        String version = line.substring("JAVA_VERSION=\"".length());
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
          end++;
        }
        return end == 0 ? 0 : Integer.parseInt(version.substring(0, end));
      }
    }
    return 0;
  }

  /** One more run per probe with -Xlog:class+load: classes by origin, and from the archive. */
  private static void classCounts(
      String title,
      String java,
      String classpath,
      Map<String, String> env,
      List<Probe> probes,
      Map<Probe, List<String>> flags)
      throws IOException, InterruptedException {
    System.out.println();
    System.out.println(title);
    for (Probe probe : probes) {
      Path log = Files.createTempFile("livegate-class-load", ".log");
      List<String> withLog = new ArrayList<>(flags.get(probe));
      withLog.add("-Xlog:class+load=info:file=" + log);
      launch(java, classpath, withLog, env, probe, false);
      List<String> lines = Files.readAllLines(log);
      long archived =
          lines.stream().filter(line -> line.contains("source: shared objects file")).count();
      Map<String, Long> groups =
          lines.stream()
              .map(line -> line.substring(line.indexOf("] ") + 2).split(" ")[0])
              .collect(
                  Collectors.groupingBy(
                      ColdStartBenchmark::group, LinkedHashMap::new, Collectors.counting()));
      long total = groups.values().stream().mapToLong(Long::longValue).sum();
      System.out.println(
          String.format("%-32s %6d (%d from CDS)  ", probe.label(), total, archived)
              + groups.entrySet().stream()
                  .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                  .limit(8)
                  .map(e -> e.getKey() + " " + e.getValue())
                  .collect(Collectors.joining(", ")));
      Files.delete(log);
    }
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * For profiling one probe by hand: writes {@code probes.sh} into {@code dir}, a script that
   * exports the probes' environment and defines a shell function per probe, then keeps moto and
   * PostgreSQL up until a file named {@code stop} appears there.
   */
  private static void hold(
      Path dir, String java, String classpath, Map<String, String> env, List<Probe> probes)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    StringBuilder script = new StringBuilder();
    env.forEach(
        (key, value) ->
            script.append("export ").append(key).append("='").append(value).append("'\n"));
    script.append("export PROBE_CP='").append(classpath).append("'\n");
    for (int i = 0; i < probes.size(); i++) {
      Probe probe = probes.get(i);
      script
          .append("probe")
          .append(i)
          .append("() { \"")
          .append(java)
          .append("\" \"$@\" -cp \"$PROBE_CP\" ")
          .append(ColdStartProbe.class.getName())
          .append(' ')
          .append(probe.handler())
          .append(' ')
          .append(
              Base64.getEncoder().encodeToString(probe.event().getBytes(StandardCharsets.UTF_8)))
          .append("; }  # ")
          .append(probe.label())
          .append("\n");
    }
    Files.writeString(dir.resolve("probes.sh"), script);
    System.out.println(
        "holding: source "
            + dir.resolve("probes.sh")
            + "; touch "
            + dir.resolve("stop")
            + " to end");
    while (!Files.exists(dir.resolve("stop"))) {
      Thread.sleep(500);
    }
    Files.delete(dir.resolve("stop"));
  }

  /**
   * One fresh JVM; answers wall ms, ms from JVM start to main, ms in main, and ms of the event
   * alone.
   */
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
    String[] parts = line.split(" ", 5);
    if (show) {
      String answer = parts[4].replaceAll("\"headers\":\\{[^}]*\\},", "");
      System.out.println(
          "  "
              + probe.label()
              + " answered: "
              + (answer.length() > 240 ? answer.substring(0, 240) + "…" : answer));
    }
    return new double[] {
      wall, Double.parseDouble(parts[1]), Double.parseDouble(parts[2]), Double.parseDouble(parts[3])
    };
  }

  /** The reference scenario's deployment of a change to dev's global unit, with a voter. */
  private static CreateDeploymentCommand referenceWithVoters(Path dir) {
    Accounts accounts =
        Accounts.of(
            ReferenceScenario.accounts().all().stream()
                .map(
                    a ->
                        Account.of(a.name(), a.path(), a.dependsOn())
                            .withVotes(List.of(VOTER), 1, 1)
                            .withRoles(a.planRole(), a.applyRole()))
                .toList());
    try (TestRepo repo = ReferenceScenario.write(TestRepo.create(dir))) {
      String base = repo.commit("reference scenario");
      repo.touch(ReferenceScenario.DEV + "/global/main.tf");
      String head = repo.commit("pull request #7");
      DeployStack stack =
          new GraphScan(ProgressListener.silent())
              .run(ScanCommand.builder(dir, accounts).base(base).head(head).parallelism(2).build());
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
                new PlanSummary(1, 0, 0, List.of()),
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

  /** A Function URL event of GitHub's ping, signed with the webhook secret. */
  private static String webhookPing() {
    byte[] body =
        "{\"zen\":\"Keep it logically awesome.\",\"hook_id\":1}".getBytes(StandardCharsets.UTF_8);
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("rawPath", "/");
    event.putObject("requestContext").putObject("http").put("method", "POST");
    event
        .putObject("headers")
        .put("content-type", "application/json")
        .put("x-github-event", "ping")
        .put("x-github-delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958")
        .put(
            "x-hub-signature-256",
            WebhookSignature.sign(WebhookSignature.secret(WEBHOOK_SECRET), body));
    event.put("body", new String(body, StandardCharsets.UTF_8));
    event.put("isBase64Encoded", false);
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

  /**
   * The children's classpath: {@code bench.classpath} if set, else the probe's classes and what the
   * lambdas module lists in {@code bench.lambdaClasspath} (its classes first, then its runtime
   * dependencies). Directories become jars under {@code jars}: CDS archives classes only from jars,
   * and a deployment package holds jars.
   */
  private static String childClasspath(Path jars) throws IOException {
    String given = System.getProperty("bench.classpath", "");
    if (!given.isEmpty()) {
      return given;
    }
    Path listing = Path.of(System.getProperty("bench.lambdaClasspath", ""));
    if (!Files.isRegularFile(listing)) {
      throw new IllegalStateException(
          "bench.lambdaClasspath names no file ("
              + listing.toAbsolutePath()
              + "): run with -Pcold-start -pl tests -am, so that the lambdas module writes it");
    }
    Path lambdaClasses = Path.of(System.getProperty("bench.lambdaClasses", ""));
    Files.createDirectories(jars);
    List<String> entries = new ArrayList<>();
    entries.add(probeJar(jars.resolve("probe.jar")).toString());
    entries.add(lambdaClasses.toString());
    entries.addAll(Arrays.asList(Files.readString(listing).strip().split(File.pathSeparator)));
    List<String> classpath = new ArrayList<>();
    for (String entry : entries) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path)) {
        // .../<module>/target/classes becomes <module>.jar
        Path jar = jars.resolve(path.getParent().getParent().getFileName() + ".jar");
        JarPacker.pack(path, jar, name -> true);
        classpath.add(jar.toString());
      } else {
        classpath.add(entry);
      }
    }
    return String.join(File.pathSeparator, classpath);
  }

  /** The probe and the empty handler, from this module's test classes. */
  private static Path probeJar(Path jar) throws IOException {
    Path classes =
        Path.of(file(ColdStartProbe.class.getProtectionDomain().getCodeSource().getLocation()));
    JarPacker.pack(
        classes,
        jar,
        name ->
            name.startsWith("io/livegate/tests/bench/ColdStartProbe")
                || name.startsWith("io/livegate/tests/bench/EmptyHandler")
                || name.startsWith("io/livegate/tests/bench/FloorHandlers"));
    return jar;
  }

  private static String file(URL url) {
    try {
      return Path.of(url.toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
