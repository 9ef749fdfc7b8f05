package io.livegate.scan;

import io.livegate.core.ProgressListener;
import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.core.stack.ScanMode;
import io.livegate.scan.graph.UnitGraph;
import io.livegate.scan.repo.FileChange;
import io.livegate.scan.repo.GitRepo;
import io.livegate.scan.repo.GitSourceCache;
import io.livegate.scan.repo.RemoteSources;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The graph scan: the units whose files changed between base and head, plus every unit that depends
 * on them, read from the committed configs at the head and ordered into layers.
 */
public final class GraphScan {
  private final ProgressListener progress;

  public GraphScan(ProgressListener progress) {
    this.progress = progress;
  }

  public DeployStack run(ScanCommand command) {
    RemoteSources remoteSources = new GitSourceCache(command.sources());
    try (GitRepo repo = GitRepo.open(command.repository())) {
      String head = repo.resolve(command.head());
      String base = command.all() ? null : repo.resolve(command.base());
      UnitGraph graph = command.readGraph(repo.tree(head), progress, remoteSources);
      if (command.all()) {
        SortedMap<String, Set<Reason>> every = new TreeMap<>();
        graph
            .units()
            .forEach(
                unit -> every.put(unit, Set.of(new Reason(Reason.Kind.ALL_UNITS, null, null))));
        return ChangeSet.deployStack(
            ScanMode.GRAPH, null, head, graph, command, every, new TreeMap<>());
      }
      List<FileChange> files = repo.changes(base, head);
      progress.progress(
          files.size()
              + " files changed between "
              + base.substring(0, 12)
              + " and "
              + head.substring(0, 12));
      ChangeSet.Changes changes =
          ChangeSet.fromFiles(
              files,
              command.filePattern(),
              graph,
              ChangeSet.baseGraph(repo, base, command, remoteSources, graph, files));
      DeployStack stack =
          ChangeSet.deployStack(
              ScanMode.GRAPH, base, head, graph, command, changes.changed(), changes.deleted());
      return DeletedUnits.ordered(
          stack,
          command,
          repo,
          base,
          progress,
          remoteSources,
          ChangeSet.unchangedConfigs(graph, files));
    }
  }
}
