package io.livegate.core.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.core.repo.SourceTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A repository tree with the directories that {@code terragrunt stack generate} would write, held
 * in memory and never written: each generated directory shows the files of the directory it is
 * generated from. Reads through it name generated paths; {@link #realPath} gives the committed file
 * behind one, which is what a change touches.
 */
final class GeneratedTree implements SourceTree {
  /** A generated directory and the committed (or itself generated) directory it copies. */
  private record Copy(String generated, String source) {}

  private final SourceTree repository;
  private final List<Copy> copies = new ArrayList<>();

  GeneratedTree(SourceTree repository) {
    this.repository = repository;
  }

  /** Makes {@code generated} show the files of {@code source}, a path of this tree. */
  void copy(String generated, String source) {
    copies.add(new Copy(generated, realPath(source)));
    copies.sort(Comparator.comparingInt((Copy copy) -> copy.generated().length()).reversed());
  }

  /** The committed path behind {@code path}: itself unless it lies in a generated directory. */
  String realPath(String path) {
    for (Copy copy : copies) {
      if (RepoPaths.isWithin(path, copy.generated())) {
        String rest = path.substring(copy.generated().length());
        return RepoPaths.join(copy.source(), rest.isEmpty() ? "" : rest.substring(1));
      }
    }
    return path;
  }

  @Override
  public String root() {
    return repository.root();
  }

  @Override
  public Collection<String> files() {
    Set<String> files = new LinkedHashSet<>(repository.files());
    for (Copy copy : copies) {
      for (String file : repository.files()) {
        if (RepoPaths.isWithin(file, copy.source()) && !file.equals(copy.source())) {
          String inside =
              copy.source().isEmpty() ? file : file.substring(copy.source().length() + 1);
          files.add(RepoPaths.join(copy.generated(), inside));
        }
      }
    }
    return files;
  }

  @Override
  public boolean isFile(String path) {
    return repository.isFile(realPath(path));
  }

  @Override
  public boolean isDirectory(String path) {
    return repository.isDirectory(realPath(path))
        || copies.stream().anyMatch(copy -> RepoPaths.isWithin(copy.generated(), path));
  }

  @Override
  public String read(String path) {
    return repository.read(realPath(path));
  }
}
