package io.livegate.scan.repo;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.scan.testing.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit's files as a scan sees them: every file at every depth, and as directories exactly the
 * root and the directories that hold a file somewhere below them.
 */
class GitRepoTreeTest {
  @TempDir Path dir;

  @Test
  void theDirectoriesOfATreeAreThoseHoldingAFileAtAnyDepth() throws IOException, GitAPIException {
    Path live = dir.resolve("live");
    List<String> files =
        List.of(
            "a/b/c/one.hcl",
            "a/b/d/two.hcl",
            "a/e/f/g/three.hcl",
            "a/x.hcl",
            "top.txt",
            "z/y/four.tf");
    String head;
    try (TestRepo repo = TestRepo.create(live)) {
      files.forEach(file -> repo.write(file, file + "\n"));
      // A directory holding only a submodule holds no file of this repository.
      Path nested = Files.createDirectories(live.resolve("modules/only"));
      try (Git inner = Git.init().setDirectory(nested.toFile()).call()) {
        Files.writeString(nested.resolve("main.tf"), "\n");
        inner.add().addFilepattern(".").call();
        inner.commit().setMessage("inner").setAuthor("t", "t@example.com").call();
      }
      head = repo.commit("files at several depths and a submodule");
    }

    try (GitRepo repo = GitRepo.open(live)) {
      SourceTree tree = repo.tree(head);

      assertThat(tree.files()).containsExactlyInAnyOrderElementsOf(files);
      for (String directory :
          List.of("", "a", "a/b", "a/b/c", "a/b/d", "a/e", "a/e/f", "a/e/f/g", "z", "z/y")) {
        assertThat(tree.isDirectory(directory)).as(directory).isTrue();
      }
      for (String notDirectory :
          List.of("a/x.hcl", "top.txt", "a/b/c/one.hcl", "modules", "modules/only", "q", "a/q")) {
        assertThat(tree.isDirectory(notDirectory)).as(notDirectory).isFalse();
      }
    }
  }
}
