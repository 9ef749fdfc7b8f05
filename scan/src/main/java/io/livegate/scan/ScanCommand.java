package io.livegate.scan;

import io.livegate.core.LivegateException;
import io.livegate.core.ProgressListener;
import io.livegate.core.account.Accounts;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.RemoteSources;
import io.livegate.scan.repo.SourceAccess;
import io.livegate.scan.repo.SourceTree;
import io.livegate.scan.terragrunt.TerragruntVersion;
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
 * @param filePattern which files beside a unit whose terraform runs elsewhere count; matched
 *     against the whole repo-relative path
 * @param environment what {@code get_env()} sees in configs
 * @param parallelism how many units are read or planned at once
 * @param allowPartial report units that cannot be resolved as warnings instead of failing
 * @param sources where remote stack sources are fetched to and kept between scans, and what that
 *     fetch may reach ({@link SourceAccess})
 * @param terragruntVersion the terragrunt release the units run with, whose rules the scan applies
 *     where releases differ (see {@link TerragruntVersion})
 * @param everyUnitLeftOutIsWarning whether a graph whose every unit {@code exclude} or {@code skip}
 *     leaves out is a warning rather than an error
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
    SourceAccess sources,
    TerragruntVersion terragruntVersion,
    boolean everyUnitLeftOutIsWarning) {

  /**
   * The default {@code filePattern}: HCL, Terraform, tfvars and JSON files. It filters only files
   * in the directory of a unit whose terraform runs elsewhere that nothing reads by name; files a
   * unit reads, and every file of the directory its terraform runs in or of a local module it
   * calls, always count.
   */
  public static final Pattern DEFAULT_FILE_PATTERN = filePattern(".+\\.(hcl|tf|tfvars|json)");

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
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(terragruntVersion, "terragruntVersion");
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

  /** This scan, applying the rules of terragrunt {@code version}. */
  /** The unit graph of {@code tree}, read as this command says (accounts, environment, rules). */
  public UnitGraph readGraph(
      SourceTree tree, ProgressListener progress, RemoteSources remoteSources) {
    return UnitGraph.read(
        tree,
        accounts,
        environment,
        terragruntVersion,
        parallelism,
        progress,
        allowPartial,
        remoteSources);
  }

  /** This scan, fetching remote stack sources as {@code sources} says. */
  public ScanCommand withSources(SourceAccess sources) {
    return with(sources, terragruntVersion, everyUnitLeftOutIsWarning);
  }

  public ScanCommand withTerragruntVersion(TerragruntVersion version) {
    return with(sources, version, everyUnitLeftOutIsWarning);
  }

  /** This scan, reporting a graph whose every unit is left out as a warning instead of failing. */
  public ScanCommand withEveryUnitLeftOutAsWarning() {
    return with(sources, terragruntVersion, true);
  }

  private ScanCommand with(
      SourceAccess sources, TerragruntVersion version, boolean leftOutIsWarning) {
    return new ScanCommand(
        repository,
        base,
        head,
        accounts,
        all,
        filePattern,
        environment,
        parallelism,
        allowPartial,
        sources,
        version,
        leftOutIsWarning);
  }

  /**
   * A scan of {@code repository} with the defaults: only changed units, the default file pattern,
   * an empty environment, one unit per core, failing on anything it cannot resolve, remote stack
   * sources in the default state directory's cache, neither {@code file://} sources nor the
   * operator's credentials for them, the rules of {@link TerragruntVersion#DEFAULT}, and failing
   * when every unit is left out.
   */
  public static Builder builder(Path repository, Accounts accounts) {
    return new Builder(repository, accounts);
  }

  /** Sets what differs from the defaults; {@link #build()} checks the whole command. */
  public static final class Builder {
    private final Path repository;
    private final Accounts accounts;
    private String base;
    private String head;
    private boolean all;
    private Pattern filePattern = DEFAULT_FILE_PATTERN;
    private Map<String, String> environment = Map.of();
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private boolean allowPartial;
    private SourceAccess sources;
    private TerragruntVersion terragruntVersion = TerragruntVersion.DEFAULT;
    private boolean everyUnitLeftOutIsWarning;

    private Builder(Path repository, Accounts accounts) {
      this.repository = repository;
      this.accounts = accounts;
    }

    public Builder base(String base) {
      this.base = base;
      return this;
    }

    public Builder head(String head) {
      this.head = head;
      return this;
    }

    /** Every unit counts as changed; no base is needed. */
    public Builder everyUnit() {
      return all(true);
    }

    public Builder all(boolean all) {
      this.all = all;
      return this;
    }

    public Builder filePattern(Pattern filePattern) {
      this.filePattern = filePattern;
      return this;
    }

    public Builder environment(Map<String, String> environment) {
      this.environment = environment;
      return this;
    }

    public Builder parallelism(int parallelism) {
      this.parallelism = parallelism;
      return this;
    }

    public Builder allowPartial(boolean allowPartial) {
      this.allowPartial = allowPartial;
      return this;
    }

    public Builder sources(SourceAccess sources) {
      this.sources = sources;
      return this;
    }

    public Builder terragruntVersion(TerragruntVersion terragruntVersion) {
      this.terragruntVersion = terragruntVersion;
      return this;
    }

    public Builder everyUnitLeftOutIsWarning(boolean everyUnitLeftOutIsWarning) {
      this.everyUnitLeftOutIsWarning = everyUnitLeftOutIsWarning;
      return this;
    }

    public ScanCommand build() {
      return new ScanCommand(
          repository,
          base,
          head,
          accounts,
          all,
          filePattern,
          environment,
          parallelism,
          allowPartial,
          // the cache of the local commands' default state directory (~/.livegate)
          sources == null
              ? SourceAccess.in(Path.of(System.getProperty("user.home"), ".livegate"))
              : sources,
          terragruntVersion,
          everyUnitLeftOutIsWarning);
    }
  }
}
