package io.livegate.cli.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an OOM kill or a host crash does to a livegate run: livegate, everything it started
 * (terraform, its provisioners) and every PostgreSQL process of its metadb, killed at once.
 */
final class PowerCut {
  private PowerCut() {}

  /**
   * Kills {@code livegate} and its descendants, and the server of the metadb in {@code
   * dataDirectory} with its descendants, and waits until all are gone.
   */
  static void cut(ProcessHandle livegate, Path dataDirectory) {
    List<ProcessHandle> victims = new ArrayList<>(livegate.descendants().toList());
    victims.add(livegate);
    ProcessHandle.of(postmasterPid(dataDirectory))
        .ifPresent(
            server -> {
              victims.addAll(server.descendants().toList());
              victims.add(server);
            });
    victims.forEach(ProcessHandle::destroyForcibly);
    victims.forEach(victim -> victim.onExit().join());
  }

  private static long postmasterPid(Path dataDirectory) {
    try {
      return Long.parseLong(
          Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
