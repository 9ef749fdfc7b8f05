package io.livegate.cdk;

import io.livegate.statemachine.RuntimeContract;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The terraform and terragrunt releases the ECS image installs, passed to {@code
 * ecs-tasks/Dockerfile} as build arguments. The image checks each download against its release's
 * SHA256SUMS and against the checksum pinned here, so a release replaced upstream (SHA256SUMS and
 * all) fails the build instead of running. livegate's terragrunt command lines are held against the
 * flags of {@link #DEFAULT}'s terragrunt version (core's {@code TerragruntArgvContractTest}); a
 * different version should be checked the same way before it is deployed.
 *
 * @param terraformVersion e.g. {@code 1.11.4}
 * @param terraformSha256 the SHA-256 of {@code terraform_<version>_linux_amd64.zip}, {@value
 *     #UNPINNED}, or {@code null} when none was given (which the validator refuses)
 * @param terragruntVersion e.g. {@code 1.1.3}
 * @param terragruntSha256 the SHA-256 of {@code terragrunt_linux_amd64}, {@value #UNPINNED}, or
 *     {@code null} when none was given
 */
public record RunnerTools(
    String terraformVersion,
    String terraformSha256,
    String terragruntVersion,
    String terragruntSha256) {
  /**
   * A checksum explicitly waived: the image then checks the download only against the SHA256SUMS
   * downloaded with it.
   */
  public static final String UNPINNED = "unpinned";

  /**
   * The SHA-256 of {@code terraform_1.11.4_linux_amd64.zip}. HashiCorp's SHA256SUMS could not be
   * fetched from the development machines; this is the value that many independent public pins of
   * that file agree on (package recipes and install scripts found with code search), and the image
   * still checks it against the SHA256SUMS of the release when it is built.
   */
  static final String TERRAFORM_1_11_4_SHA256 =
      "1ce994251c00281d6845f0f268637ba50c0005657eb3cf096b92f753b42ef4dc";

  /**
   * The SHA-256 of terragrunt v1.1.3's {@code terragrunt_linux_amd64}, as two independent public
   * pins of that file agree (Gruntwork's SHA256SUMS could not be fetched here); the image checks it
   * against the release's SHA256SUMS too.
   */
  static final String TERRAGRUNT_1_1_3_SHA256 =
      "d5da6a66741f4ee752aa3b502b57e47fd6d5c178942861b2507f14f083e7606e";

  /** The versions livegate is tested with, each with its pinned checksum. */
  public static final RunnerTools DEFAULT =
      new RunnerTools(
          RuntimeContract.RunnerVersions.TERRAFORM,
          TERRAFORM_1_11_4_SHA256,
          RuntimeContract.RunnerVersions.TERRAGRUNT,
          TERRAGRUNT_1_1_3_SHA256);

  /**
   * The tools of a config that names versions and, maybe, checksums: a version without a checksum
   * gets the pinned one when it is {@link #DEFAULT}'s version, and none otherwise.
   */
  public static RunnerTools of(
      String terraformVersion,
      String terraformSha256,
      String terragruntVersion,
      String terragruntSha256) {
    return new RunnerTools(
        terraformVersion,
        terraformSha256 != null || !terraformVersion.equals(DEFAULT.terraformVersion)
            ? terraformSha256
            : DEFAULT.terraformSha256,
        terragruntVersion,
        terragruntSha256 != null || !terragruntVersion.equals(DEFAULT.terragruntVersion)
            ? terragruntSha256
            : DEFAULT.terragruntSha256);
  }

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

  /** The Docker build arguments; a waived checksum is passed empty. */
  public Map<String, String> buildArgs() {
    Map<String, String> args = new LinkedHashMap<>();
    args.put("TERRAFORM_VERSION", terraformVersion);
    args.put("TERRAFORM_SHA256", UNPINNED.equals(terraformSha256) ? "" : terraformSha256);
    args.put("TERRAGRUNT_VERSION", terragruntVersion);
    args.put("TERRAGRUNT_SHA256", UNPINNED.equals(terragruntSha256) ? "" : terragruntSha256);
    return args;
  }
}
