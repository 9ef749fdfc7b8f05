package io.livegate.core.stack;

import java.util.List;

/** An account that a deploy stack touches, with the accounts it waits for. */
public record AccountOrder(String name, String path, List<String> dependsOn) {
  public AccountOrder {
    dependsOn = List.copyOf(dependsOn);
  }
}
