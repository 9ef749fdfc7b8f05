package io.livegate.scan.terragrunt;

import io.livegate.scan.hcl.Evaluator;
import io.livegate.scan.hcl.InvalidHcl;
import io.livegate.scan.hcl.Scope;
import io.livegate.scan.hcl.StandardFunctions;
import io.livegate.scan.hcl.Unknown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Terraform's filesystem functions in a config's context: paths relative to its terragrunt
 * directory, files read from the revision being scanned, and every file they look at recorded, so
 * that its change changes the unit. {@code file()} itself stays with {@link TerragruntFunctions}.
 */
final class FileFunctions {
  /** The hash functions of a file's content: {@code filemd5(p)} is {@code md5(file(p))}. */
  private static final Map<String, String> CONTENT_FUNCTIONS =
      Map.of(
          "filebase64", "base64encode",
          "filemd5", "md5",
          "filesha1", "sha1",
          "filesha256", "sha256",
          "filesha512", "sha512",
          "filebase64sha256", "base64sha256",
          "filebase64sha512", "base64sha512");

  static final Set<String> NAMES = names();

  private final ConfigEvaluation config;

  FileFunctions(ConfigEvaluation config) {
    this.config = config;
  }

  private static Set<String> names() {
    List<String> names = new ArrayList<>(CONTENT_FUNCTIONS.keySet());
    names.addAll(List.of("fileset", "templatefile"));
    return Set.copyOf(names);
  }

  /**
   * The value of {@code function} for the repo-relative {@code target}, which the caller has
   * resolved and recorded as read.
   */
  Object call(
      String function, String target, List<Supplier<Object>> arguments, String file, int line) {
    return function.equals("fileset")
        ? fileset(target, arguments, file, line)
        : withContent(function, target, arguments, file, line);
  }

  private Object withContent(
      String function, String target, List<Supplier<Object>> arguments, String file, int line) {
    if (!config.reader().tree().isFile(target)) {
      return Unknown.at(file, line, function + "(): '" + target + "' does not exist");
    }
    String content = config.reader().tree().read(target);
    if (function.equals("templatefile")) {
      return templatefile(target, content, arguments, file, line);
    }
    return StandardFunctions.call(
        CONTENT_FUNCTIONS.get(function), List.of(() -> content), file, line);
  }

  /**
   * Terraform's {@code templatestring(template, variables)}: a string, such as one read with {@code
   * file()}, rendered as a template with only the given variables.
   */
  Object templatestring(List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.size() != 2) {
      return Unknown.at(file, line, "templatestring() takes a template and an object of variables");
    }
    Object template = arguments.get(0).get();
    if (!(template instanceof String content)) {
      return template instanceof Unknown
          ? template
          : Unknown.at(
              file,
              line,
              "templatestring() needs a template string, found " + Evaluator.describe(template));
    }
    // The template has no file of its own: its errors say where in the template they are.
    return render("templatestring", "templatestring() template", content, arguments, file, line);
  }

  private Object templatefile(
      String target, String content, List<Supplier<Object>> arguments, String file, int line) {
    return render("templatefile", target, content, arguments, file, line);
  }

  /** A template rendered with only the given variables; functions are the config's. */
  private Object render(
      String function,
      String source,
      String content,
      List<Supplier<Object>> arguments,
      String file,
      int line) {
    Object variables = arguments.size() > 1 ? arguments.get(1).get() : Map.of();
    if (!(variables instanceof Map<?, ?> map)) {
      return variables instanceof Unknown
          ? variables
          : Unknown.at(file, line, function + "() takes an object of variables");
    }
    Scope scope =
        new Scope() {
          @Override
          public Object variable(String name, String where, int at) {
            return Unknown.at(
                where,
                at,
                "'" + name + "' is not among the variables passed to " + function + "()");
          }

          @Override
          public Object call(
              String function, List<Supplier<Object>> callArguments, String where, int at) {
            return config.call(function, callArguments, where, at);
          }
        };
    @SuppressWarnings("unchecked")
    Map<String, Object> bindings = (Map<String, Object>) map;
    try {
      return new Evaluator(scope).evaluateTemplate(source, content, bindings);
    } catch (InvalidHcl e) {
      return Unknown.at(file, line, function + "(): " + e.getMessage());
    }
  }

  /** The files under {@code directory} matching a glob, relative to it, sorted. */
  private Object fileset(
      String directory, List<Supplier<Object>> arguments, String file, int line) {
    if (arguments.size() != 2) {
      return Unknown.at(file, line, "fileset() takes a path and a pattern");
    }
    Object pattern = arguments.get(1).get();
    if (!(pattern instanceof String glob)) {
      return pattern instanceof Unknown
          ? pattern
          : Unknown.at(file, line, "fileset() needs a pattern string");
    }
    // The listing decides the result, so the directory counts as read (for reading a commit again,
    // never as a change by itself: see FileRead.Via.FILESET).
    config.reads().add(new FileRead(directory, FileRead.Via.FILESET));
    Pattern matcher = Pattern.compile(globToRegex(glob));
    String prefix = directory.isEmpty() ? "" : directory + "/";
    List<String> matches = new ArrayList<>();
    for (String candidate : config.reader().tree().files()) {
      if (candidate.startsWith(prefix)
          && matcher.matcher(candidate.substring(prefix.length())).matches()) {
        matches.add(candidate.substring(prefix.length()));
        config.reads().add(new FileRead(candidate, FileRead.Via.FILE));
      }
    }
    Collections.sort(matches);
    return List.copyOf(matches);
  }

  /** Terraform's fileset globs: {@code *}, {@code **}, {@code ?}, {@code {a,b}}, {@code [..]}. */
  static String globToRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    int alternatives = 0;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            boolean slash = i + 2 < glob.length() && glob.charAt(i + 2) == '/';
            regex.append(slash ? "(?:.*/)?" : ".*");
            i += slash ? 2 : 1;
          } else {
            regex.append("[^/]*");
          }
        }
        case '?' -> regex.append("[^/]");
        case '{' -> {
          regex.append("(?:");
          alternatives++;
        }
        case '}' -> {
          regex.append(alternatives > 0 ? ")" : "\\}");
          alternatives = Math.max(0, alternatives - 1);
        }
        case ',' -> regex.append(alternatives > 0 ? "|" : ",");
        case '[' -> {
          int close = glob.indexOf(']', i);
          if (close < 0) {
            regex.append("\\[");
          } else {
            regex.append('[').append(glob, i + 1, close).append(']');
            i = close;
          }
        }
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return regex.toString();
  }
}
