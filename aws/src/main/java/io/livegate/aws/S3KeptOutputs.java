package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.runner.BoundedLog;
import io.livegate.core.runner.KeptOutputs;
import io.livegate.statemachine.RuntimeContract;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * An Apply task's kept output in the artifact bucket, at {@code applies/<name>/<file>}, where only
 * terra-run's apply role reads and writes: the retried task of a killed one reads how the killed
 * attempt's terraform ended.
 */
public final class S3KeptOutputs implements KeptOutputs {
  private static final Set<String> FILES = Set.of("stdout", "stderr");
  private static final String SUFFIX = ".apply.output";

  private final S3Client s3;
  private final String bucket;

  public S3KeptOutputs(S3Client s3, String bucket) {
    this.s3 = s3;
    this.bucket = bucket;
  }

  @Override
  public void keep(String name, String file, byte[] content) {
    String key = key(name, file);
    try {
      s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(content));
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot keep " + key + " in " + bucket + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<byte[]> read(String name, String file) {
    String key = key(name, file);
    try {
      return Optional.of(
          s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw new LivegateException(
          "cannot read " + key + " from " + bucket + ": " + e.getMessage(), e);
    }
  }

  /** Only an execution's apply output ({@code NAME.apply.output}) and its two files have keys. */
  private static String key(String name, String file) {
    if (!name.endsWith(SUFFIX)
        || !BoundedLog.isExecutionName(name.substring(0, name.length() - SUFFIX.length()))
        || !FILES.contains(file)) {
      throw new LivegateException("'" + name + "/" + file + "' is not an apply's kept output");
    }
    return RuntimeContract.Artifacts.APPLY_OUTPUTS_PREFIX + name + "/" + file;
  }
}
