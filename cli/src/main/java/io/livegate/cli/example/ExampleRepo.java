package io.livegate.cli.example;

import io.livegate.core.LivegateException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * The bundled example live repository: the reference scenario's two accounts and five units each,
 * with real terraform (terraform_data, and terraform_remote_state for dependency outputs), written
 * as a git repository with a base commit and a change commit to both accounts' global units.
 */
public final class ExampleRepo {
  /** The accounts file inside the example. */
  public static final String ACCOUNTS_FILE = "livegate.hcl";

  private static final String RESOURCES = "/io/livegate/cli/example/";

  /** Resources cannot be named .gitignore (Maven leaves such files out), so this one is renamed. */
  private static final String DOT_PREFIX = "dot-";

  private static final PersonIdent AUTHOR =
      new PersonIdent("livegate example", "example@livegate.invalid");

  private ExampleRepo() {}

  /**
   * Writes the example into {@code dir}, which must not exist or be empty.
   *
   * @return the base and head commit ids
   */
  public static Commits create(Path dir) {
    try {
      if (Files.exists(dir) && (!Files.isDirectory(dir) || hasEntries(dir))) {
        throw new LivegateException(dir + " already exists and is not an empty directory");
      }
      Files.createDirectories(dir);
      try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
        copy("base/", dir);
        String base = commit(git, "Reference live repository: two accounts, five units each");
        copy("change/", dir);
        String head = commit(git, "Bump both accounts' networks to v2");
        return new Commits(base, head);
      }
    } catch (IOException e) {
      throw new LivegateException(
          "cannot write the example into " + dir + ": " + e.getMessage(), e);
    } catch (GitAPIException e) {
      throw new LivegateException("cannot commit the example in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The example's two commits. */
  public record Commits(String base, String head) {}

  private static boolean hasEntries(Path dir) throws IOException {
    try (var entries = Files.list(dir)) {
      return entries.findAny().isPresent();
    }
  }

  private static void copy(String tree, Path dir) throws IOException {
    for (String file : resourceLines(tree.equals("base/") ? "files.txt" : "change-files.txt")) {
      String target = file.replaceFirst("(^|/)" + DOT_PREFIX, "$1.");
      Path destination = dir.resolve(target);
      Files.createDirectories(destination.getParent());
      try (InputStream in = resource(tree + file)) {
        Files.copy(in, destination, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static List<String> resourceLines(String name) throws IOException {
    try (InputStream in = resource(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.isBlank())
          .toList();
    }
  }

  private static InputStream resource(String name) {
    InputStream in = ExampleRepo.class.getResourceAsStream(RESOURCES + name);
    if (in == null) {
      throw new IllegalStateException(
          "the example resource " + name + " is missing from the build");
    }
    return in;
  }

  private static String commit(Git git, String message) throws GitAPIException {
    git.add().addFilepattern(".").call();
    return git.commit()
        .setMessage(message)
        .setAuthor(AUTHOR)
        .setCommitter(AUTHOR)
        .setSign(false)
        .call()
        .getName();
  }
}
