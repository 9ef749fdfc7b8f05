package io.livegate.cli.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs a main class in a JVM of its own, on this test's class path: how the crash
 * tests get a livegate (or a stand-in) they can kill.
 */
final class ChildJvm {
  private ChildJvm() {}

  static List<String> command(Class<?> main, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(arguments);
    return command;
  }
}
