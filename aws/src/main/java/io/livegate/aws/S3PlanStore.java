package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.unit.PlanStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The plan store on AWS: plan files and their text in the artifact bucket. A plan's key is its
 * {@link PlanStore#reference}; its text, for the confirm page, is beside it with {@code .txt}
 * added, and a bounded copy of the text is kept beside the execution's log for the console ({@link
 * S3ExecutionLogs#keepPlan}), where the admin function may read it.
 */
public final class S3PlanStore implements PlanStore {
  /** The confirm page shows at most this much of a plan's text. */
  static final int MAX_TEXT = 512 * 1024;

  private final Supplier<S3Client> s3;
  private final String bucket;

  public S3PlanStore(S3Client s3, String bucket) {
    this(() -> s3, bucket);
  }

  /** With a client that is built on first use (see {@link AwsClients#lazy}). */
  public S3PlanStore(Supplier<S3Client> s3, String bucket) {
    this.s3 = s3;
    this.bucket = bucket;
  }

  @Override
  public String save(Execution execution, Path planFile, String planText) {
    String key = PlanStore.reference(execution);
    try {
      s3.get()
          .putObject(request -> request.bucket(bucket).key(key), RequestBody.fromFile(planFile));
      s3.get()
          .putObject(
              request ->
                  request.bucket(bucket).key(key + ".txt").contentType("text/plain; charset=utf-8"),
              RequestBody.fromString(planText, StandardCharsets.UTF_8));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot upload " + key + " to " + bucket + ": " + e.getMessage(), e);
    }
    new S3ExecutionLogs(s3.get(), bucket).keepPlan(execution.name(), planText);
    return key;
  }

  /** Downloads the plan to {@code planFile}, replacing a file left there (by Plan, or a retry). */
  @Override
  public void load(String key, Path planFile) {
    try {
      Files.createDirectories(planFile.getParent());
      Files.deleteIfExists(planFile);
    } catch (IOException e) {
      throw new LivegateException("cannot replace " + planFile + ": " + e.getMessage(), e);
    }
    try {
      s3.get()
          .getObject(
              request -> request.bucket(bucket).key(key), ResponseTransformer.toFile(planFile));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot download " + key + " from " + bucket + ": " + e.getMessage(), e);
    }
  }

  /** The plan's text, cut at {@value #MAX_TEXT} bytes, or a note saying why there is none. */
  @Override
  public String text(String key) {
    try (InputStream in = s3.get().getObject(request -> request.bucket(bucket).key(key + ".txt"))) {
      byte[] bytes = in.readNBytes(MAX_TEXT + 1);
      String text = new String(bytes, 0, Math.min(bytes.length, MAX_TEXT), StandardCharsets.UTF_8);
      return bytes.length > MAX_TEXT ? text + "\n… (cut; see the log for the whole plan)" : text;
    } catch (NoSuchKeyException e) {
      return "(no saved plan text)";
    } catch (IOException | SdkException e) {
      return "(the plan text cannot be read: " + e.getMessage() + ")";
    }
  }
}
