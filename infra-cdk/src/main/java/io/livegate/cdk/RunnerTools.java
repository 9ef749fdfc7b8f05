package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The terraform and terragrunt releases the ECS image installs, passed to {@code
 * ecs-tasks/Dockerfile} as build arguments. The image checks each download against its release's
 * SHA256SUMS and, when a checksum is pinned here, against that too, so a release replaced upstream
 * fails the build instead of running. livegate's terragrunt command lines are held against the
 * flags of {@link #DEFAULT}'s terragrunt version (core's {@code TerragruntArgvContractTest}); a
 * different version should be checked the same way before it is deployed.
 *
 * @param terraformVersion e.g. {@code 1.11.4}
 * @param terraformSha256 the SHA-256 of {@code terraform_<version>_linux_amd64.zip}, or {@code
 *     null}
 * @param terragruntVersion e.g. {@code 1.1.3}
 * @param terragruntSha256 the SHA-256 of {@code terragrunt_linux_amd64}, or {@code null}
 */
public record RunnerTools(
    String terraformVersion,
    String terraformSha256,
    String terragruntVersion,
    String terragruntSha256) {
  /**
   * The versions livegate is tested with. No checksum is pinned by default: the development
   * machines cannot download the releases to compute them, and a checksum copied from elsewhere is
   * not a pin. An installation pins its own ({@code terraformSha256}, {@code terragruntSha256}).
   */
  public static final RunnerTools DEFAULT =
      new RunnerTools(
          RuntimeContract.RunnerVersions.TERRAFORM,
          null,
          RuntimeContract.RunnerVersions.TERRAGRUNT,
          null);

  /**
   * The Docker labels of every task's container: the releases its image installs, which {@code
   * livegate doctor --aws} compares with the ones it expects.
   */
  public Map<String, String> labels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(RuntimeContract.RunnerVersions.TERRAFORM_LABEL, terraformVersion);
    labels.put(RuntimeContract.RunnerVersions.TERRAGRUNT_LABEL, terragruntVersion);
    return labels;
  }

  /** The Docker build arguments; a checksum that is not pinned is passed empty. */
  public Map<String, String> buildArgs() {
    Map<String, String> args = new LinkedHashMap<>();
    args.put("TERRAFORM_VERSION", terraformVersion);
    args.put("TERRAFORM_SHA256", terraformSha256 == null ? "" : terraformSha256);
    args.put("TERRAGRUNT_VERSION", terragruntVersion);
    args.put("TERRAGRUNT_SHA256", terragruntSha256 == null ? "" : terragruntSha256);
    return args;
  }
}
