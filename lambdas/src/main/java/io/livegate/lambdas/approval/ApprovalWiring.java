package io.livegate.lambdas.approval;

import io.livegate.aws.AwsClients;
import io.livegate.aws.AwsEngine;
import io.livegate.aws.AwsSettings;
import io.livegate.aws.Env;
import io.livegate.aws.MetadbSource;
import io.livegate.aws.S3PlanStore;
import io.livegate.aws.Secrets;
import io.livegate.aws.SesMailer;
import io.livegate.aws.SfnTaskTokens;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.vote.CastVote;
import io.livegate.core.vote.RequestVotes;
import io.livegate.core.vote.VoteDesk;
import io.livegate.core.vote.VoteLinks;
import io.livegate.lambdas.SnapStartPriming;
import io.livegate.sql.Metadb;
import io.livegate.statemachine.RuntimeContract;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sesv2.SesV2Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The composition root of approval-request and approval-response: the only place that reads their
 * environment.
 *
 * <ul>
 *   <li>{@value RuntimeContract.Approval#VOTE_BASE_URL}: approval-response's Function URL, without
 *       a trailing slash;
 *   <li>{@value RuntimeContract.Approval#VOTE_KEY_SECRET}: the Secrets Manager secret that holds
 *       the vote-link signing key (at least 32 characters);
 *   <li>{@value RuntimeContract.Approval#MAIL_FROM}: the SES identity that sends the mail;
 *   <li>{@value RuntimeContract.Artifacts#PLAN_BUCKET}: the artifact bucket, for the plan text on
 *       the confirm page;
 *   <li>{@value RuntimeContract.Approval#SKIP_EMPTY}: true to skip the vote on plans without
 *       changes (default false);
 *   <li>{@code LIVEGATE_APPROVAL_TIMEOUT}: how long links stay valid, as the trigger's vote
 *       timeout;
 *   <li>the metadb's, see {@link MetadbSource}, and {@code AWS_REGION}.
 * </ul>
 *
 * The signing key is fetched on first use, not while the Lambda initialises.
 */
public final class ApprovalWiring {
  private final AwsClients aws;
  private final Metadb metadb;
  private final Supplier<RequestVotes> requestVotes;
  private final Supplier<ApprovalResponseHandler.Parts> responseParts;

  private ApprovalWiring(
      AwsClients aws,
      Metadb metadb,
      Supplier<RequestVotes> requestVotes,
      Supplier<ApprovalResponseHandler.Parts> responseParts) {
    this.aws = aws;
    this.metadb = metadb;
    this.requestVotes = requestVotes;
    this.responseParts = responseParts;
  }

  public static ApprovalWiring fromEnvironment(Map<String, String> environment) {
    AwsClients aws = new AwsClients(AwsSettings.from(environment));
    Clock clock = Clock.systemUTC();
    Secrets secrets = Secrets.of(aws);
    Metadb metadb = MetadbSource.connect(environment, secrets);
    Duration linkLifetime =
        Env.duration(
            environment,
            RuntimeContract.Engine.APPROVAL_TIMEOUT,
            AwsEngine.DEFAULT_APPROVAL_TIMEOUT);
    // Step Functions answers only deciding votes and failed requests; S3 only plan texts; SES
    // only mails votes. Each handler builds only the clients its events use, but priming builds
    // them all.
    SfnTaskTokens flows =
        new SfnTaskTokens(
            aws.lazy(
                SfnClient::builder,
                client ->
                    client.sendTaskSuccess(
                        request -> request.taskToken(AwsClients.PLACEHOLDER).output("{}"))));
    Supplier<S3Client> s3 =
        aws.lazy(
            S3Client::builder,
            client ->
                client.getObjectAsBytes(
                    request -> request.bucket(AwsClients.PLACEHOLDER).key(AwsClients.PLACEHOLDER)));
    Supplier<SesV2Client> ses =
        aws.lazy(
            SesV2Client::builder,
            client ->
                client.sendEmail(
                    request ->
                        request
                            .fromEmailAddress(AwsClients.PLACEHOLDER + "@example.com")
                            .destination(
                                to -> to.toAddresses(AwsClients.PLACEHOLDER + "@example.com"))
                            .content(
                                content ->
                                    content.simple(
                                        message ->
                                            message
                                                .subject(text -> text.data(AwsClients.PLACEHOLDER))
                                                .body(
                                                    body ->
                                                        body.text(
                                                            text ->
                                                                text.data(
                                                                    AwsClients.PLACEHOLDER)))))));
    String keySecret = Env.required(environment, RuntimeContract.Approval.VOTE_KEY_SECRET);
    Supplier<VoteLinks> links =
        Secrets.memoize(() -> voteLinks(secrets.text(keySecret), keySecret));
    Supplier<RequestVotes> requestVotes =
        Secrets.memoize(
            () ->
                new RequestVotes(
                    metadb.executions(),
                    metadb.deployments(),
                    links.get(),
                    new SesMailer(
                        ses.get(), Env.required(environment, RuntimeContract.Approval.MAIL_FROM)),
                    flows,
                    new RequestVotes.Settings(
                        Env.required(environment, RuntimeContract.Approval.VOTE_BASE_URL),
                        linkLifetime,
                        Env.flag(environment, RuntimeContract.Approval.SKIP_EMPTY)),
                    clock));
    Supplier<ApprovalResponseHandler.Parts> responseParts =
        Secrets.memoize(
            () -> {
              S3PlanStore plans =
                  new S3PlanStore(
                      s3, Env.required(environment, RuntimeContract.Artifacts.PLAN_BUCKET));
              return new ApprovalResponseHandler.Parts(
                  new VoteDesk(
                      links.get(),
                      new CastVote(metadb.votes(), clock),
                      metadb.votes(),
                      metadb.executions(),
                      metadb.deployments(),
                      (Execution execution) ->
                          execution.planArtifact() == null
                              ? "(not planned yet)"
                              : plans.text(execution.planArtifact()),
                      // no public console on AWS: `livegate ui --aws` is an operator's own
                      execution -> Optional.empty(),
                      clock),
                  metadb.executions(),
                  flows);
            });
    return new ApprovalWiring(aws, metadb, requestVotes, responseParts);
  }

  /**
   * SnapStart priming: {@link SnapStartPriming#prime} of every approval client and the metadb. The
   * vote-link key, and the parts built from it, are left to the first event.
   */
  public void prime() {
    SnapStartPriming.prime(aws, metadb);
  }

  public RequestVotes requestVotes() {
    return requestVotes.get();
  }

  public ApprovalResponseHandler.Parts responseParts() {
    return responseParts.get();
  }

  static VoteLinks voteLinks(String key, String secret) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    if (bytes.length < 32) {
      throw new LivegateException("the vote-link key in " + secret + " is shorter than 32 bytes");
    }
    return new VoteLinks(bytes);
  }
}
