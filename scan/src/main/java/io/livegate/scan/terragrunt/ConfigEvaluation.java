package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.hcl.Attribute;
import io.livegate.scan.hcl.Block;
import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.Expression;
import io.livegate.scan.hcl.HclDocument;
import io.livegate.scan.hcl.Scope;
import io.livegate.scan.hcl.Unknown;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One terragrunt file evaluated in one context, as terragrunt would: a unit's own config, a file it
 * includes (evaluated in the unit's directory), or a file read by {@code read_terragrunt_config()}
 * (evaluated in its own directory). It is the HCL scope of that file; what the names and functions
 * mean is split as terragrunt's config package splits it: {@link Locals}, {@link Includes}, {@link
 * Dependencies} and {@link TerragruntFunctions}.
 */
final class ConfigEvaluation implements Scope {
  /** The result of reading a file through {@code read_terragrunt_config()}. */
  record ReadResult(Object value, Set<FileRead> reads) {}

  private final TerragruntConfigReader reader;
  private final HclDocument document;

  /** The directory terragrunt treats as the config's own: the unit's for the unit and includes. */
  private final String terragruntDir;

  /** For an included file: its own path, which get_parent_terragrunt_dir() and friends use. */
  private final String includedFile;

  private final Set<FileRead> reads;
  private final List<String> warnings;

  /** Files being read through read_terragrunt_config() above this one, to stop read cycles. */
  private final List<String> readStack;

  /**
   * The config whose features and values this one sees: the unit's for an included file, else
   * itself.
   */
  private final ConfigEvaluation featureOwner;

  /** What {@code values} is: a generated unit's or nested stack's values; null elsewhere. */
  private Object values;

  /**
   * Whether this is a nested stack whose stack block passed no values, so it has no values file.
   */
  private boolean noValuesFile;

  private final Evaluator evaluator = new Evaluator(this);
  private final Locals locals;
  private final Includes includes = new Includes(this);
  private final TerragruntFunctions functions = new TerragruntFunctions(this);

  private ConfigEvaluation(
      TerragruntConfigReader reader,
      HclDocument document,
      String terragruntDir,
      String includedFile,
      Set<FileRead> reads,
      List<String> warnings,
      List<String> readStack,
      ConfigEvaluation featureOwner) {
    this.reader = reader;
    this.document = document;
    this.terragruntDir = terragruntDir;
    this.includedFile = includedFile;
    this.reads = reads;
    this.warnings = warnings;
    this.readStack = readStack;
    this.featureOwner = featureOwner == null ? this : featureOwner;
    this.locals = new Locals(document, evaluator);
  }

  static ConfigEvaluation forUnit(
      TerragruntConfigReader reader,
      HclDocument document,
      String unit,
      Set<FileRead> reads,
      List<String> warnings) {
    return new ConfigEvaluation(
        reader, document, unit, null, reads, warnings, List.of(document.file()), null);
  }

  /**
   * A config evaluated with {@code values}: a generated unit's config, or a stack file that another
   * stack generates.
   */
  ConfigEvaluation withValues(Object values) {
    this.values = values;
    return this;
  }

  /**
   * A nested stack whose {@code stack} block passes no {@code values}: terragrunt writes no
   * terragrunt.values.hcl for it (v1.1.3 pkg/config/stack.go {@code writeValues} returns on nil
   * values, {@code ReadValues} then gives nil), so the stack file has no {@code values} variable
   * and any reference to it fails the stack.
   */
  ConfigEvaluation withoutValuesFile() {
    this.noValuesFile = true;
    return this;
  }

  /** A stack file, evaluated in its own directory; its reads go to {@code reads}. */
  static ConfigEvaluation forStack(
      TerragruntConfigReader reader, HclDocument document, String dir, Set<FileRead> reads) {
    return new ConfigEvaluation(
        reader, document, dir, null, reads, new ArrayList<>(), List.of(document.file()), null);
  }

  /** A file this unit config includes, evaluated in the unit's directory. */
  ConfigEvaluation included(HclDocument included, String file) {
    return new ConfigEvaluation(
        reader, included, terragruntDir, file, reads, warnings, readStack, this);
  }

  /** A file read by {@code read_terragrunt_config()}, evaluated in its own directory. */
  ConfigEvaluation read(String file, Set<FileRead> innerReads, List<String> stack) {
    return new ConfigEvaluation(
        reader,
        reader.document(file),
        RepoPaths.parent(file),
        null,
        innerReads,
        new ArrayList<>(),
        List.copyOf(stack),
        null);
  }

  /** The unit's dependencies: its own and its includes', merged by each include's strategy. */
  List<DependencyDeclaration> dependencies() {
    return Dependencies.of(this);
  }

  /** Whether terragrunt would leave the unit out of plan and apply, and why. */
  Optional<Exclusion> exclusion() {
    return Exclusions.of(this);
  }

  /**
   * Where terraform runs for the unit, as far as the scan can tell.
   *
   * @param copied the repo-relative directory terragrunt copies whole into its cache (the part of a
   *     local source before {@code //}, or all of it), or the unit's own directory without a
   *     source; null for a remote source or one that cannot be evaluated
   * @param workingDirectory the directory whose .tf files terraform reads (the source with its
   *     {@code //} subdirectory); null where {@code copied} is
   * @param declared whether the unit or an include has a {@code terraform { source }}
   */
  record TerraformDirectory(String copied, String workingDirectory, boolean declared) {}

  /** Where terraform runs for the unit: its own directory, a local source, or unknown. */
  TerraformDirectory terraformDirectory() {
    Attribute source =
        document.blocks("terraform").stream()
            .flatMap(block -> block.attribute("source").stream())
            .findFirst()
            .orElse(null);
    ConfigEvaluation declaring = this;
    if (source == null) {
      for (Includes.Include include : includes.all()) {
        Optional<Attribute> included =
            include.config().document().blocks("terraform").stream()
                .flatMap(block -> block.attribute("source").stream())
                .findFirst();
        if (included.isPresent() && !include.mergeStrategy().equals("no_merge")) {
          source = included.get();
          declaring = include.config();
        }
      }
    }
    if (source == null) {
      return new TerraformDirectory(terragruntDir, terragruntDir, false);
    }
    Object value = declaring.evaluator.evaluate(source.value());
    if (!(value instanceof String text)) {
      warnings.add(
          declaring.document.file()
              + ":"
              + source.line()
              + ": terraform.source cannot be evaluated ("
              + (value instanceof Unknown unknown
                  ? unknown.reasonSeenFrom(declaring.document.file(), source.line())
                  : Evaluator.describe(value))
              + "), so changes to a local module will not change this unit");
      return new TerraformDirectory(null, null, true);
    }
    String location = text.contains("?") ? text.substring(0, text.indexOf('?')) : text;
    if (location.contains("::") || location.contains("://") || location.startsWith("git@")) {
      return new TerraformDirectory(null, null, true);
    }
    int subdir = location.indexOf("//", location.startsWith("/") ? 1 : 0);
    String moduleRoot = toRepoPath(subdir < 0 ? location : location.substring(0, subdir));
    if (moduleRoot == null) {
      return new TerraformDirectory(null, null, true);
    }
    String working =
        subdir < 0
            ? moduleRoot
            : RepoPaths.normalize(RepoPaths.join(moduleRoot, location.substring(subdir + 2)));
    return new TerraformDirectory(moduleRoot, working == null ? moduleRoot : working, true);
  }

  /**
   * Evaluates every local and attribute once, so that each file the config reads is recorded even
   * when it feeds only inputs. Values that cannot be known are fine here.
   */
  void evaluateEverything() {
    evaluateAll();
    includes.all().forEach(include -> include.config().evaluateAll());
  }

  private void evaluateAll() {
    locals.names().forEach(locals::value);
    document.attributes().values().forEach(attribute -> evaluator.evaluate(attribute.value()));
    document.blocks().stream()
        .filter(block -> !block.type().equals("include") && !block.type().equals("locals"))
        .forEach(this::evaluateBlock);
  }

  private void evaluateBlock(Block block) {
    block.attributes().values().forEach(attribute -> evaluator.evaluate(attribute.value()));
    block.blocks().forEach(this::evaluateBlock);
  }

  @Override
  public Object variable(String name, String file, int line) {
    return switch (name) {
      case "local" -> locals.asVariable();
      case "include" -> includes.asVariable(file, line);
      case "dependency" -> Dependencies.variable(this, file, line);
      case "feature" -> Features.variable(featureOwner);
      case "values" -> {
        if (featureOwner.noValuesFile) {
          throw new InvalidTerragruntConfig(
              file,
              line,
              "'values' is not set: the stack block that generates this stack passes no values,"
                  + " so terragrunt writes no terragrunt.values.hcl for it");
        }
        yield featureOwner.values != null
            ? featureOwner.values
            : Unknown.at(
                file,
                line,
                "'values' is only set in a unit or stack that a terragrunt.stack.hcl generates");
      }
      default -> TerragruntConfigReader.notKnownAtScanTime("'" + name + "'", file, line);
    };
  }

  @Override
  public Object call(String function, List<Supplier<Object>> arguments, String file, int line) {
    return functions.call(function, arguments, file, line);
  }

  Object evaluate(Expression expression) {
    return evaluator.evaluate(expression);
  }

  TerragruntConfigReader reader() {
    return reader;
  }

  HclDocument document() {
    return document;
  }

  String terragruntDir() {
    return terragruntDir;
  }

  /** For an included file, its own path; null otherwise. */
  String includedFile() {
    return includedFile;
  }

  /** Where every file read while evaluating is recorded. */
  Set<FileRead> reads() {
    return reads;
  }

  List<String> readStack() {
    return readStack;
  }

  Locals locals() {
    return locals;
  }

  Includes includes() {
    return includes;
  }

  /**
   * Why a value is not what was needed, for an error at {@code file:line}: its reason when unknown
   * (with its location only where that differs), else what it is.
   */
  static String reasonOrType(Object value, String file, int line) {
    return value instanceof Unknown unknown
        ? unknown.reasonSeenFrom(file, line)
        : "found " + Evaluator.describe(value);
  }

  /** The absolute path of a repo path, as terragrunt's functions return paths. */
  String absolute(String repoPath) {
    String root = reader.tree().root();
    return repoPath.isEmpty() ? root : root + "/" + repoPath;
  }

  /**
   * The repo-relative form of a path from a config: absolute, or relative to the terragrunt
   * directory; {@code null} when it leads outside the repository.
   */
  String toRepoPath(String path) {
    return toRepoPath(path, terragruntDir);
  }

  /**
   * The repo-relative form of a path that a file function reads ({@code file()}, {@code
   * read_terragrunt_config()}, ...): a relative one is read against the directory of the file being
   * evaluated, which for an included file is its own directory, not the unit's.
   */
  String fileToRepoPath(String path) {
    return toRepoPath(path, includedFile == null ? terragruntDir : RepoPaths.parent(includedFile));
  }

  private String toRepoPath(String path, String relativeTo) {
    String root = reader.tree().root();
    if (path.startsWith("/")) {
      String normalizedRoot = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
      String normalized = "/" + RepoPaths.normalize(path.substring(1));
      if (normalized.equals(normalizedRoot)) {
        return "";
      }
      return normalized.startsWith(normalizedRoot + "/")
          ? normalized.substring(normalizedRoot.length() + 1)
          : null;
    }
    return RepoPaths.normalize(RepoPaths.join(relativeTo, path));
  }
}
