package io.livegate.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.MergeLock;
import io.livegate.core.deploy.MergedPullRequest;
import io.livegate.statemachine.FlowJson;
import java.io.IOException;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.ssm.model.ParameterAlreadyExistsException;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;
import software.amazon.awssdk.services.ssm.model.ParameterType;

/**
 * The merge lock as an SSM parameter. Acquiring is create-if-absent ({@code PutParameter} with
 * {@code Overwrite=false}), which SSM makes atomic; the value names the holder's repository, pull
 * request and merge commit. Only the holder releases it. Failures are errors, never a silent
 * "unlocked": the lock fails closed.
 */
public final class SsmMergeLock implements MergeLock {
  private final SsmClient ssm;
  private final String parameter;

  public SsmMergeLock(SsmClient ssm, String parameter) {
    this.ssm = ssm;
    this.parameter = parameter;
  }

  @Override
  public boolean acquire(MergedPullRequest holder) {
    try {
      ssm.putParameter(
          request ->
              request
                  .name(parameter)
                  .type(ParameterType.STRING)
                  .overwrite(false)
                  .value(value(holder))
                  .description("livegate merge lock: the merge being deployed"));
      return true;
    } catch (ParameterAlreadyExistsException e) {
      return holder(holder).orElse(false);
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot take the merge lock " + parameter + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean release(MergedPullRequest holder) {
    try {
      if (!holder(holder).orElse(false)) {
        return false;
      }
      ssm.deleteParameter(request -> request.name(parameter));
      return true;
    } catch (ParameterNotFoundException e) {
      return false;
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot release the merge lock " + parameter + ": " + e.getMessage(), e);
    }
  }

  /** Who holds the lock now, as the parameter's JSON; empty when nobody does. */
  public Optional<String> current() {
    try {
      return Optional.of(ssm.getParameter(request -> request.name(parameter)).parameter().value());
    } catch (ParameterNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code holder} holds the lock; empty when nobody does. */
  private Optional<Boolean> holder(MergedPullRequest holder) {
    return current().map(value -> sameMerge(value, holder));
  }

  private static boolean sameMerge(String value, MergedPullRequest holder) {
    try {
      JsonNode node = FlowJson.MAPPER.readTree(value);
      return holder.repository().equals(node.path("repository").asText())
          && holder.mergeCommit().equals(node.path("mergeCommit").asText());
    } catch (IOException e) {
      return false;
    }
  }

  private static String value(MergedPullRequest holder) {
    return FlowJson.MAPPER
        .createObjectNode()
        .put("repository", holder.repository())
        .put("pullRequest", holder.number())
        .put("mergeCommit", holder.mergeCommit())
        .toString();
  }
}
