package io.livegate.scan.terragrunt;

import io.livegate.core.RepoPaths;
import io.livegate.scan.repo.SourceTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A repository tree with the directories that {@code terragrunt stack generate} would write, held
 * in memory and never written: each generated directory shows the files of the directory it is
 * generated from, in the repository or in a fetched remote source. Reads through it name generated
 * paths; {@link #realPath} gives the committed file behind one, which is what a change touches.
 */
final class GeneratedTree implements SourceTree {
  /**
   * A directory of the repository, or of a fetched remote source.
   *
   * @param tree the repository, or the files of the remote source
   * @param path the directory in {@code tree}
   * @param remote the remote source that {@code tree} holds the files of; {@code null} for the
   *     repository
   */
  record Location(SourceTree tree, String path, RemoteSource remote) {
    /**
     * The path of a file as a change or a reason names it; for a remote file, its go-getter
     * address, which no change of the repository touches.
     */
    String realPath() {
      return remote == null ? path : remote.address(path);
    }

    Location resolve(String rest) {
      return new Location(tree, RepoPaths.join(path, rest), remote);
    }
  }

  /** A generated directory and the directory it copies. */
  private record Copy(String generated, Location source) {}

  private final SourceTree repository;
  private final List<Copy> copies = new ArrayList<>();

  GeneratedTree(SourceTree repository) {
    this.repository = repository;
  }

  /** Makes {@code generated} show the files of {@code source}. */
  void copy(String generated, Location source) {
    copies.add(new Copy(generated, source));
    copies.sort(Comparator.comparingInt((Copy copy) -> copy.generated().length()).reversed());
  }

  /** Where the file or directory {@code path} of this tree really is. */
  Location locate(String path) {
    Copy copy = copyHolding(path);
    if (copy == null) {
      return new Location(repository, path, null);
    }
    String rest = path.substring(copy.generated().length());
    return copy.source().resolve(rest.isEmpty() ? "" : rest.substring(1));
  }

  /** The innermost copy that {@code path} lies in; null for a path of the repository itself. */
  private Copy copyHolding(String path) {
    for (Copy copy : copies) {
      if (RepoPaths.isWithin(path, copy.generated())) {
        return copy;
      }
    }
    return null;
  }

  /**
   * The files that generating {@code directory} writes, sorted: those copied into it, and those of
   * each stack copied into a directory above it (its stack file and whatever else its source
   * holds), as {@code terragrunt stack generate} writes them; never a file of another generated
   * directory inside or beside it.
   */
  List<String> filesGeneratedFor(String directory) {
    return files().stream()
        .filter(
            file -> {
              Copy copy = copyHolding(file);
              return copy != null && RepoPaths.isWithin(directory, copy.generated());
            })
        .sorted()
        .toList();
  }

  /** The committed path behind {@code path}: itself unless it lies in a generated directory. */
  String realPath(String path) {
    return locate(path).realPath();
  }

  @Override
  public String root() {
    return repository.root();
  }

  @Override
  public Collection<String> files() {
    if (copies.isEmpty()) {
      return repository.files();
    }
    Set<String> files = new LinkedHashSet<>(repository.files());
    for (Copy copy : copies) {
      Location source = copy.source();
      for (String file : source.tree().files()) {
        if (RepoPaths.isWithin(file, source.path()) && !file.equals(source.path())) {
          String inside =
              source.path().isEmpty() ? file : file.substring(source.path().length() + 1);
          files.add(RepoPaths.join(copy.generated(), inside));
        }
      }
    }
    return files;
  }

  @Override
  public boolean isFile(String path) {
    Location location = locate(path);
    return location.tree().isFile(location.path());
  }

  @Override
  public boolean isDirectory(String path) {
    Location location = locate(path);
    return location.tree().isDirectory(location.path())
        || copies.stream().anyMatch(copy -> RepoPaths.isWithin(copy.generated(), path));
  }

  @Override
  public String read(String path) {
    Location location = locate(path);
    return location.tree().read(location.path());
  }

  @Override
  public boolean isExecutable(String path) {
    Location location = locate(path);
    return location.tree().isExecutable(location.path());
  }

  @Override
  public byte[] bytes(String path) {
    Location location = locate(path);
    return location.tree().bytes(location.path());
  }
}
