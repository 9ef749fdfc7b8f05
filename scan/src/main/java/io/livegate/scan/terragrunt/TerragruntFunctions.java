package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.hcl.StandardFunctions;
import io.livegate.scan.hcl.Unknown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Terragrunt's own functions (terragrunt's config_helpers.go), in the context of one config: paths
 * from its terragrunt directory, files it reads (recorded, so that their changes change the unit),
 * the environment livegate was given, and Terraform's functions for everything else. Functions that
 * would run code or reach a service are never called: their value is unknown.
 */
final class TerragruntFunctions {
  private static final String DEFAULT_PARENT_FILE = TerragruntConfigReader.CONFIG_FILE;

  /** Functions that would run a command, decrypt a secret or call AWS; never called by a scan. */
  private static final Set<String> NOT_CALLED =
      Set.of(
          "run_cmd",
          "get_aws_account_id",
          "get_aws_account_alias",
          "get_aws_caller_identity_arn",
          "get_aws_caller_identity_user_id",
          "get_terraform_command",
          "get_terraform_cli_args",
          "get_terraform_commands_that_need_vars",
          "get_terraform_commands_that_need_input",
          "get_terraform_commands_that_need_locking",
          "get_terraform_commands_that_need_parallelism",
          "get_platform",
          "timestamp",
          "plantimestamp",
          "uuid",
          "bcrypt",
          "pathexpand");

  private final ConfigEvaluation config;
  private final FileFunctions files;

  TerragruntFunctions(ConfigEvaluation config) {
    this.config = config;
    this.files = new FileFunctions(config);
  }

  Object call(String function, List<Supplier<Object>> arguments, String file, int line) {
    String terragruntDir = config.terragruntDir();
    return switch (function) {
      case "find_in_parent_folders" -> findInParentFolders(arguments, file, line);
      case "get_terragrunt_dir", "get_original_terragrunt_dir" -> config.absolute(terragruntDir);
      case "get_parent_terragrunt_dir" ->
          config
              .includes()
              .related(
                  arguments,
                  file,
                  line,
                  include -> config.absolute(RepoPaths.parent(include)),
                  config.absolute(terragruntDir));
      case "path_relative_to_include" ->
          config
              .includes()
              .related(
                  arguments,
                  file,
                  line,
                  include -> RepoPaths.relative(RepoPaths.parent(include), terragruntDir),
                  ".");
      case "path_relative_from_include" ->
          config
              .includes()
              .related(
                  arguments,
                  file,
                  line,
                  include -> RepoPaths.relative(terragruntDir, RepoPaths.parent(include)),
                  ".");
      case "get_repo_root" -> config.reader().tree().root();
      case "get_path_from_repo_root" -> terragruntDir.isEmpty() ? "." : terragruntDir;
      case "get_path_to_repo_root" -> RepoPaths.relative(terragruntDir, "");
      case "get_env" -> getEnv(arguments, file, line);
      case "read_terragrunt_config" -> readTerragruntConfig(arguments, file, line);
      case "file" -> readFile(arguments, file, line);
      case "templatefile" ->
          fileFunction(
              function,
              arguments,
              file,
              line,
              FileRead.Via.TEMPLATEFILE,
              target -> files.call(function, target, arguments, file, line));
      case "templatestring" -> files.templatestring(arguments, file, line);
      case "sops_decrypt_file" ->
          fileFunction(
              function,
              arguments,
              file,
              line,
              FileRead.Via.SOPS_DECRYPT_FILE,
              path ->
                  Unknown.at(
                      file,
                      line,
                      "sops_decrypt_file() is never called by a livegate scan; its value is not"
                          + " known"));
      case "fileexists" ->
          fileFunction(
              function,
              arguments,
              file,
              line,
              FileRead.Via.FILEEXISTS,
              path -> config.reader().tree().isFile(path));
      default ->
          FileFunctions.NAMES.contains(function)
              ? fileFunction(
                  function,
                  arguments,
                  file,
                  line,
                  function.equals("fileset") ? FileRead.Via.FILESET : FileRead.Via.FILE,
                  target -> files.call(function, target, arguments, file, line))
              : NOT_CALLED.contains(function)
                  ? Unknown.at(
                      file,
                      line,
                      function + "() is never called by a livegate scan; its value is not known")
                  : StandardFunctions.call(function, arguments, file, line);
    };
  }

  private Object findInParentFolders(List<Supplier<Object>> arguments, String file, int line) {
    Object name = arguments.isEmpty() ? DEFAULT_PARENT_FILE : arguments.get(0).get();
    if (!(name instanceof String wanted)) {
      return name instanceof Unknown
          ? name
          : Unknown.at(file, line, "find_in_parent_folders() takes a file name");
    }
    String terragruntDir = config.terragruntDir();
    for (String dir = RepoPaths.parent(terragruntDir); dir != null; dir = RepoPaths.parent(dir)) {
      String candidate = RepoPaths.normalize(RepoPaths.join(dir, wanted));
      if (candidate == null) {
        continue;
      }
      // Every folder looked in counts as read: adding the file to a nearer folder changes which
      // one is found.
      config.reads().add(new FileRead(candidate, FileRead.Via.FIND_IN_PARENT_FOLDERS));
      if (config.reader().tree().isFile(candidate)
          || config.reader().tree().isDirectory(candidate)) {
        return config.absolute(candidate);
      }
    }
    if (arguments.size() > 1) {
      return arguments.get(1).get();
    }
    return Unknown.at(
        file,
        line,
        "find_in_parent_folders(): no '"
            + wanted
            + "' in any folder above "
            + (terragruntDir.isEmpty() ? "the repository root" : terragruntDir));
  }

  private Object getEnv(List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.isEmpty()) {
      return Unknown.at(file, line, "get_env() needs a variable name");
    }
    Object name = arguments.get(0).get();
    if (!(name instanceof String variable)) {
      return name instanceof Unknown
          ? name
          : Unknown.at(file, line, "get_env() needs a variable name");
    }
    String value = config.reader().environment().get(variable);
    if (value != null) {
      return value;
    }
    if (arguments.size() > 1) {
      return arguments.get(1).get();
    }
    return Unknown.at(file, line, "get_env(): " + variable + " is not set and has no default");
  }

  private Object readTerragruntConfig(List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.isEmpty()) {
      return Unknown.at(file, line, "read_terragrunt_config() needs a path");
    }
    Object argument = arguments.get(0).get();
    if (!(argument instanceof String path)) {
      return argument instanceof Unknown
          ? argument
          : Unknown.at(file, line, "read_terragrunt_config() needs a path");
    }
    String target = config.fileToRepoPath(path);
    TerragruntConfigReader reader = config.reader();
    if (target != null) {
      config.reads().add(new FileRead(target, FileRead.Via.READ_TERRAGRUNT_CONFIG));
    }
    if (target == null || !reader.tree().isFile(target)) {
      return arguments.size() > 1
          ? arguments.get(1).get()
          : Unknown.at(file, line, "read_terragrunt_config(): '" + path + "' does not exist");
    }
    if (config.readStack().contains(target)) {
      return Unknown.at(
          file,
          line,
          "read_terragrunt_config() cycle: "
              + String.join(" -> ", config.readStack())
              + " -> "
              + target);
    }
    ConfigEvaluation.ReadResult result = reader.cachedRead(target);
    if (result == null) {
      result = evaluateReadFile(target);
      reader.cacheRead(target, result);
    }
    result
        .reads()
        .forEach(
            inner ->
                config
                    .reads()
                    .add(new FileRead(inner.path(), FileRead.Via.READ_TERRAGRUNT_CONFIG)));
    return result.value();
  }

  /** The value of a file read by {@code read_terragrunt_config()}, evaluated in its own dir. */
  private ConfigEvaluation.ReadResult evaluateReadFile(String target) {
    List<String> stack = new ArrayList<>(config.readStack());
    stack.add(target);
    Set<FileRead> innerReads = new LinkedHashSet<>();
    ConfigEvaluation read = config.read(target, innerReads, stack);
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("locals", materialize(read.locals().asVariable()));
    read.document()
        .attributes()
        .forEach(
            (name, attribute) -> value.put(name, materialize(read.evaluate(attribute.value()))));
    value.put("dependency", materialize(Dependencies.variable(read, target, 0)));
    read.evaluateEverything();
    return new ConfigEvaluation.ReadResult(
        Collections.unmodifiableMap(value), Set.copyOf(innerReads));
  }

  private Object readFile(List<Supplier<Object>> arguments, String file, int line) {
    Object argument = arguments.isEmpty() ? null : arguments.get(0).get();
    if (!(argument instanceof String path)) {
      return argument instanceof Unknown ? argument : Unknown.at(file, line, "file() needs a path");
    }
    String target = config.fileToRepoPath(path);
    if (target != null) {
      config.reads().add(new FileRead(target, FileRead.Via.FILE));
    }
    if (target == null || !config.reader().tree().isFile(target)) {
      return Unknown.at(file, line, "file(): '" + path + "' does not exist");
    }
    return config.reader().tree().read(target);
  }

  /**
   * A file function of a path: the path is recorded as read whether or not the file exists, so that
   * adding, changing or deleting it changes the unit; then {@code function} gives the value.
   */
  private Object fileFunction(
      String name,
      List<Supplier<Object>> arguments,
      String file,
      int line,
      FileRead.Via via,
      Function<String, Object> function) {
    Object argument = arguments.isEmpty() ? null : arguments.get(0).get();
    if (!(argument instanceof String path)) {
      return argument instanceof Unknown
          ? argument
          : Unknown.at(file, line, name + "() needs a path");
    }
    String target = config.fileToRepoPath(path);
    if (target == null) {
      return Unknown.at(file, line, name + "(): '" + path + "' is outside the repository");
    }
    config.reads().add(new FileRead(target, via));
    return function.apply(target);
  }

  /** A value with every lazy map computed, so that it can be kept and compared. */
  static Object materialize(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((key, item) -> copy.put(key, materialize(item)));
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List<?> list) {
      return list.stream().map(TerragruntFunctions::materialize).toList();
    }
    return value;
  }
}
