package io.livegate.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code livegate admin --aws} against a stub of Lambda's Invoke API: each subcommand sends its
 * request, signed with SigV4 by the AWS SDK with the caller's credentials, and prints the answer's
 * lines with the exit code the local command has; {@code livegate ui --aws} serves the pages the
 * function renders.
 *
 * <p>Why a stub: moto runs Lambda functions only in Docker, which this machine does not have, so
 * the Invoke API is played by WireMock here. What the stub stands in for is covered for real: the
 * admin handler runs in process against moto and an embedded metadb ({@code AdminAwsTest} in the
 * tests module), and the request and answer documents are the same {@code AdminCall} both sides
 * use.
 */
class AdminLambdaCliTest {
  @RegisterExtension
  static final WireMockExtension LAMBDA =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String FUNCTION = "livegate-admin";
  private static final String INVOKE = "/2015-03-31/functions/" + FUNCTION + "/invocations";

  /** The SDK's default chain reads these first; the test's caller is this access key. */
  private static final List<String> CREDENTIALS = List.of("aws.accessKeyId", "aws.secretAccessKey");

  @BeforeEach
  void credentials() {
    System.setProperty("aws.accessKeyId", "AKIAOPERATOR");
    System.setProperty("aws.secretAccessKey", "operator-secret");
  }

  @AfterEach
  void forgetCredentials() {
    CREDENTIALS.forEach(System::clearProperty);
  }

  private static CliRun admin(String... args) {
    return onAws("admin", args);
  }

  private static CliRun status(String... args) {
    return onAws("status", args);
  }

  /**
   * {@code livegate COMMAND ARGS --aws ...} against the stub, as the operator's machine runs it.
   */
  private static CliRun onAws(String command, String... args) {
    return CliRun.of(awsArguments(command, args));
  }

  /** {@code COMMAND ARGS --aws ...}: the arguments that point {@code COMMAND} at the stub. */
  private static String[] awsArguments(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    all.addAll(
        List.of(
            "--aws",
            "--function",
            FUNCTION,
            "--region",
            "eu-west-1",
            "--endpoint-url",
            LAMBDA.baseUrl()));
    return all.toArray(String[]::new);
  }

  private static void answer(String request, String answer) {
    LAMBDA.stubFor(
        post(urlEqualTo(INVOKE))
            .withRequestBody(equalToJson(request))
            .willReturn(aResponse().withStatus(200).withBody(answer)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          queue                         | {"command":"queue"}
          retry-scan 12                 | {"command":"retry-scan","deployment":12}
          abort 12 --reason hung        | {"command":"abort","deployment":12,"reason":"hung"}
          abort 12                      | {"command":"abort","deployment":12,"reason":"no reason given"}
          release-lock acme/live        | {"command":"release-lock","repository":"acme/live"}
          resolve-rollback 7            | {"command":"resolve-rollback","execution":7}
          """)
  void eachSubcommandInvokesTheLambdaSignedAsTheCallerAndPrintsItsLines(
      String arguments, String request) {
    answer(request, "{\"lines\":[\"first line\",\"second line\"],\"done\":true}");

    CliRun run = admin(arguments.split(" "));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("first line\nsecond line\n");
    verifyInvokedSignedAsTheCaller();
  }

  /** The function was invoked, waiting for its answer, signed with SigV4 as the caller. */
  private static void verifyInvokedSignedAsTheCaller() {
    LAMBDA.verify(
        postRequestedFor(urlEqualTo(INVOKE))
            .withHeader(
                "Authorization",
                matching(
                    "AWS4-HMAC-SHA256 Credential=AKIAOPERATOR/[0-9]{8}/eu-west-1/lambda/"
                        + "aws4_request, .*"))
            .withHeader("X-Amz-Invocation-Type", matching("RequestResponse")));
  }

  @Test
  void anAnswerThatDidNothingExitsOneAsTheLocalCommandDoes() {
    answer(
        "{\"command\":\"resolve-rollback\",\"execution\":99}",
        "{\"lines\":[\"there is no execution 99\"],\"done\":false}");

    CliRun run = admin("resolve-rollback", "99");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEqualTo("there is no execution 99\n");
  }

  @Test
  void aRefusedRequestAndAFailedFunctionArePrintedAsErrors() {
    answer("{\"command\":\"queue\"}", "{\"error\":\"unknown command \\\"queue\\\"\"}");

    CliRun refused = admin("queue");

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).isEqualTo("livegate: unknown command \"queue\"\n");

    LAMBDA.stubFor(
        post(urlEqualTo(INVOKE))
            .withRequestBody(equalToJson("{\"command\":\"retry-scan\",\"deployment\":3}"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("X-Amz-Function-Error", "Unhandled")
                    .withBody(
                        "{\"errorMessage\":\"cannot reach the metadb\","
                            + "\"errorType\":\"io.livegate.core.LivegateException\"}")));

    CliRun failed = admin("retry-scan", "3");

    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.err())
        .isEqualTo("livegate: the admin Lambda livegate-admin failed: cannot reach the metadb\n");
  }

  @ParameterizedTest(name = "status {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                   | {"command":"status","json":false}
          3                    | {"command":"status","deployment":3,"json":false}
          --json               | {"command":"status","json":true}
          3 --log app/b        | {"command":"status","deployment":3,"json":false,"log":"app/b"}
          """)
  void statusWithAwsReadsThroughTheLambdaSignedAsTheCallerAndPrintsItsLines(
      String arguments, String request) {
    answer(
        request,
        "{\"lines\":[\"log of app/b in deployment 3: s3://artifacts/logs/x.log\","
            + "\"--- 2026-11-27T20:00:00Z  terraform apply  (exit 1)\"],\"done\":true}");

    CliRun run = status(arguments.isEmpty() ? new String[0] : arguments.split(" "));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out())
        .isEqualTo(
            "log of app/b in deployment 3: s3://artifacts/logs/x.log\n"
                + "--- 2026-11-27T20:00:00Z  terraform apply  (exit 1)\n");
    verifyInvokedSignedAsTheCaller();
  }

  @Test
  void aStatusOfADeploymentThatIsNotThereOnAwsIsAnErrorAsItIsLocally() {
    answer(
        "{\"command\":\"status\",\"deployment\":9,\"json\":false}",
        "{\"lines\":[\"there is no deployment 9 on AWS\"],\"done\":false}");

    CliRun run = status("9");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEqualTo("livegate: there is no deployment 9 on AWS\n");
  }

  @Test
  void statusTakesEitherAStateDirectoryOrAws() {
    CliRun both = status("--state-dir", "/tmp/nowhere");

    assertThat(both.exitCode()).isEqualTo(2);
    assertThat(both.err())
        .isEqualTo(
            "livegate status: Error: --state-dir=DIR and [--aws --function=NAME [--region=REGION]"
                + " [--endpoint-url=URL]] are mutually exclusive (specify only one)\n"
                + "Run 'livegate status --help' for its options and examples.\n");
  }

  @Test
  void aCallerThatMayNotInvokeTheFunctionIsToldSo() {
    LAMBDA.stubFor(
        post(urlEqualTo(INVOKE))
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withHeader("x-amzn-ErrorType", "AccessDeniedException")
                    .withBody(
                        "{\"Message\":\"User: arn:aws:iam::123456789012:user/dev is not"
                            + " authorized to perform: lambda:InvokeFunction\"}")));

    CliRun denied = admin("queue");

    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.err())
        .startsWith("livegate: cannot invoke the admin Lambda livegate-admin: User: ")
        .contains("is not authorized to perform: lambda:InvokeFunction");
  }

  /**
   * {@code livegate ui --aws} on a free port, running until the test stops it, and the address it
   * printed (waited for: the "console:" line).
   */
  private record Ui(Thread thread, String url) implements AutoCloseable {
    static Ui start() throws Exception {
      CompletableFuture<String> url = new CompletableFuture<>();
      Writer lines =
          new Writer() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public void write(char[] chars, int offset, int length) {
              text.append(chars, offset, length);
              Matcher console = Pattern.compile("console: (\\S+)/\n").matcher(text);
              if (console.find()) {
                url.complete(console.group(1));
              }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
          };
      StringWriter err = new StringWriter();
      Thread thread =
          new Thread(
              () -> {
                Livegate.execute(
                    Map.of(),
                    new PrintWriter(lines, true),
                    new PrintWriter(err, true),
                    awsArguments("ui", "--port", "0"));
                url.completeExceptionally(new AssertionError("ui stopped: " + err));
              },
              "ui-aws-test");
      thread.start();
      return new Ui(thread, url.get());
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
      return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws Exception {
      return send(HttpRequest.newBuilder(URI.create(url + path)));
    }

    @Override
    public void close() throws InterruptedException {
      thread.interrupt();
      thread.join();
    }
  }

  @Test
  void uiWithAwsServesEachPageTheLambdaRendersReadOnlyAndSignedAsTheCaller() throws Exception {
    answer(
        "{\"command\":\"page\",\"path\":\"/deployments/3\",\"fragment\":false}",
        "{\"status\":200,\"contentType\":\"text/html; charset=utf-8\","
            + "\"body\":\"<h1>Deployment 3</h1>\",\"live\":true}");
    answer(
        "{\"command\":\"page\",\"path\":\"/deployments/3\",\"fragment\":true}",
        "{\"status\":200,\"contentType\":\"text/html; charset=utf-8\","
            + "\"body\":\"<h1>Deployment 3</h1> done\",\"live\":false}");

    try (Ui ui = Ui.start()) {
      HttpResponse<String> page = ui.get("/deployments/3");
      HttpResponse<String> fragment = ui.get("/deployments/3?fragment=1");
      HttpResponse<String> post =
          ui.send(
              HttpRequest.newBuilder(URI.create(ui.url() + "/deployments/3"))
                  .POST(HttpRequest.BodyPublishers.ofString("")));

      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).isEqualTo("<h1>Deployment 3</h1>");
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(page.headers().firstValue("X-Livegate-Live")).hasValue("true");
      assertThat(page.headers().firstValue("Content-Security-Policy")).isPresent();
      assertThat(fragment.body()).isEqualTo("<h1>Deployment 3</h1> done");
      assertThat(fragment.headers().firstValue("X-Livegate-Live")).hasValue("false");
      assertThat(post.statusCode()).isEqualTo(405);
    }
    verifyInvokedSignedAsTheCaller();
    // The POST reached no function: the console only reads.
    LAMBDA.verify(2, postRequestedFor(urlEqualTo(INVOKE)));
  }

  @Test
  void uiWithAwsShowsWhyAPageCannotBeReadThroughTheLambda() throws Exception {
    answer(
        "{\"command\":\"page\",\"path\":\"/\",\"fragment\":false}",
        "{\"error\":\"unknown command \\\"page\\\"\"}");

    try (Ui ui = Ui.start()) {
      HttpResponse<String> page = ui.get("/");

      assertThat(page.statusCode()).isEqualTo(502);
      assertThat(page.body())
          .isEqualTo("cannot read the page through the admin Lambda: unknown command \"page\"\n");
    }
  }
}
