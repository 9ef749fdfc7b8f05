package io.livegate.core.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
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
 */
public record ScanCommand(
    Path repository,
    String base,
    String head,
    Accounts accounts,
    boolean all,
    Pattern filePattern,
    Map<String, String> environment,
    int parallelism) {

  /** The default {@code filePattern}: HCL, Terraform, tfvars and JSON files. */
  public static final Pattern DEFAULT_FILE_PATTERN = Pattern.compile(".+\\.(hcl|tf|tfvars|json)$");

  public ScanCommand {
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(filePattern, "filePattern");
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
