package io.livegate.scan.terragrunt;

import io.livegate.core.LivegateException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The terragrunt release a scan reads configs for. terragrunt changed some rules between releases
 * (how {@code skip} is inherited, when {@code exclude} exists), so the scan applies the rules of
 * the release that will run the units, never a mix.
 *
 * @param major e.g. 0 in 0.68.2
 * @param minor e.g. 68 in 0.68.2
 * @param patch e.g. 2 in 0.68.2
 */
public record TerragruntVersion(int major, int minor, int patch)
    implements Comparable<TerragruntVersion> {
  /**
   * The release assumed when nothing says otherwise: the one livegate's runner image installs by
   * default (statemachine's {@code RuntimeContract.RunnerVersions.TERRAGRUNT}; a test in ecs-tasks
   * keeps the two equal).
   */
  public static final TerragruntVersion DEFAULT = new TerragruntVersion(1, 1, 3);

  /** {@link #DEFAULT} as text, for option descriptions. */
  public static final String DEFAULT_TEXT = "1.1.3";

  /** The first release that merges an included file's {@code skip} into the unit (include.go). */
  public static final TerragruntVersion SKIP_INHERITED = new TerragruntVersion(0, 68, 0);

  /** The first release whose config has an {@code exclude} block (config.go). */
  public static final TerragruntVersion EXCLUDE_BLOCK = new TerragruntVersion(0, 69, 0);

  /** The first release without the {@code skip} attribute (config.go). */
  public static final TerragruntVersion SKIP_REMOVED = new TerragruntVersion(0, 93, 0);

  private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

  /**
   * Reads {@code 0.68.2}, {@code v0.68.2}, or the first line {@code terragrunt --version} prints
   * ({@code terragrunt version v0.68.2}); a pre-release suffix is ignored.
   *
   * @throws LivegateException naming the text when it holds no version
   */
  public static TerragruntVersion parse(String text) {
    String firstLine = text.strip().lines().findFirst().orElse("");
    Matcher matcher = VERSION.matcher(firstLine);
    if (!matcher.find()) {
      throw new LivegateException(
          "'" + firstLine + "' is not a terragrunt version (expected e.g. 0.68.2 or v1.1.3)");
    }
    return new TerragruntVersion(
        Integer.parseInt(matcher.group(1)),
        Integer.parseInt(matcher.group(2)),
        Integer.parseInt(matcher.group(3)));
  }

  /** Whether this release is {@code other} or later. */
  public boolean atLeast(TerragruntVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public int compareTo(TerragruntVersion other) {
    int byMajor = Integer.compare(major, other.major);
    if (byMajor != 0) {
      return byMajor;
    }
    int byMinor = Integer.compare(minor, other.minor);
    return byMinor != 0 ? byMinor : Integer.compare(patch, other.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
