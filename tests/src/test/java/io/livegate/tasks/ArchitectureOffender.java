package io.livegate.tasks;

import io.livegate.cli.Livegate;

/** An ECS task class that reaches the CLI, so that ArchitectureTest can show its rule fails. */
@SuppressWarnings("unused")
public final class ArchitectureOffender {
  void run(String... args) {
    Livegate.main(args);
  }
}
