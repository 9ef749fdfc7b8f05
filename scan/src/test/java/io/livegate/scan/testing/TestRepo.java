package io.livegate.scan.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/** A real git repository in a temp directory, written file by file and committed with JGit. */
public final class TestRepo implements AutoCloseable {
  private static final PersonIdent AUTHOR =
      new PersonIdent("livegate tests", "tests@livegate.invalid");

  private final Path root;
  private final Git git;

  private TestRepo(Path root, Git git) {
    this.root = root;
    this.git = git;
  }

  public static TestRepo create(Path dir) {
    try {
      Files.createDirectories(dir);
      return new TestRepo(
          dir, Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GitAPIException e) {
      throw new IllegalStateException(e);
    }
  }

  public Path root() {
    return root;
  }

  public TestRepo write(String path, String content) {
    try {
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes a unit: {@code dir/terragrunt.hcl} with {@code config}, beside a {@code main.tf} of one
   * {@code terraform_data} resource.
   */
  public TestRepo unit(String dir, String config) {
    return write(dir + "/terragrunt.hcl", config)
        .write(dir + "/main.tf", "resource \"terraform_data\" \"this\" {}\n");
  }

  /** The file's text in the work tree. */
  public String read(String path) {
    try {
      return Files.readString(root.resolve(path), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Appends a line, which is enough to make a file "modified". */
  public TestRepo touch(String path) {
    try {
      Files.writeString(
          root.resolve(path),
          "\n# touched\n",
          StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.APPEND);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public TestRepo delete(String path) {
    Path target = root.resolve(path);
    try (Stream<Path> walk = Files.walk(target)) {
      walk.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public TestRepo move(String from, String to) {
    try {
      Path target = root.resolve(to);
      Files.createDirectories(target.getParent());
      Files.move(root.resolve(from), target);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Commits everything in the work tree, deletions included, and returns the commit id. */
  public String commit(String message) {
    try {
      git.add().addFilepattern(".").call();
      git.add().addFilepattern(".").setUpdate(true).call();
      RevCommit commit =
          git.commit()
              .setMessage(message)
              .setAuthor(AUTHOR)
              .setCommitter(AUTHOR)
              .setSign(false)
              .setAllowEmpty(true)
              .call();
      return commit.getName();
    } catch (GitAPIException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    git.close();
  }
}
