package io.livegate.core.runner;

/** Runs a process and waits for it. The one seam through which core starts anything. */
@FunctionalInterface
public interface CommandRunner {
  CommandResult run(Command command);
}
