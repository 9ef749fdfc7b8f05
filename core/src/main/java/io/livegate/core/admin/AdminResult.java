package io.livegate.core.admin;

import java.util.List;

/**
 * What an admin command did, as the lines it prints.
 *
 * @param done whether it changed something (a refusal or a command that found nothing to do is not
 *     done; {@code livegate admin} exits 1 then)
 */
public record AdminResult(List<String> lines, boolean done) {
  public AdminResult {
    lines = List.copyOf(lines);
  }
}
