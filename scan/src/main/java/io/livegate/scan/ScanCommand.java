package io.livegate.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.scan.repo.GitSourceCache;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What to scan.
 *
 * @param repository the repository's work tree or .git directory
 * @param base the revision before the merge; may be {@code null} when {@code all} is set
 * @param head the merge revision
 * @param all treat every unit as changed
 * @param filePattern which changed files count; matched against the whole repo-relative path
 * @param environment what {@code get_env()} sees in configs
 * @param parallelism how many units are read or planned at once
 * @param allowPartial report units that cannot be resolved as warnings instead of failing
 * @param sourceCache where remote stack sources are fetched to and kept between scans
 */
public record ScanCommand(
    Path repository,
    String base,
    String head,
    Accounts accounts,
    boolean all,
    Pattern filePattern,
    Map<String, String> environment,
    int parallelism,
    boolean allowPartial,
    Path sourceCache) {

  /**
   * The default {@code filePattern}: HCL, Terraform, tfvars and JSON files. It filters only files
   * inside a unit's directory that the unit does not read; files a unit reads always count.
   */
  public static final Pattern DEFAULT_FILE_PATTERN = filePattern(".+\\.(hcl|tf|tfvars|json)");

  /** A scan that fails on anything it cannot resolve. */
  public ScanCommand(
      Path repository,
      String base,
      String head,
      Accounts accounts,
      boolean all,
      Pattern filePattern,
      Map<String, String> environment,
      int parallelism) {
    this(repository, base, head, accounts, all, filePattern, environment, parallelism, false);
  }

  /** A scan that fetches remote stack sources into the default cache directory. */
  public ScanCommand(
      Path repository,
      String base,
      String head,
      Accounts accounts,
      boolean all,
      Pattern filePattern,
      Map<String, String> environment,
      int parallelism,
      boolean allowPartial) {
    this(
        repository,
        base,
        head,
        accounts,
        all,
        filePattern,
        environment,
        parallelism,
        allowPartial,
        GitSourceCache.defaultDirectory());
  }

  /**
   * A file pattern as a scan matches it: against the whole path, with '.' matching any character, a
   * newline too, because git and terraform accept such names.
   */
  public static Pattern filePattern(String regex) {
    return Pattern.compile(regex, Pattern.DOTALL);
  }

  public ScanCommand {
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(filePattern, "filePattern");
    Objects.requireNonNull(sourceCache, "sourceCache");
    environment = Map.copyOf(environment);
    if (head == null || head.isBlank()) {
      throw new LivegateException("a head revision is required");
    }
    if (!all && (base == null || base.isBlank())) {
      throw new LivegateException("a base revision is required unless all units are scanned");
    }
    if (parallelism < 1) {
      throw new LivegateException("parallelism must be at least 1, not " + parallelism);
    }
  }
}
