package io.livegate.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** One run of {@code livegate} through {@link Livegate#execute}, with what it printed. */
record CliRun(int exitCode, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        Livegate.execute(Map.of(), new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new CliRun(exitCode, out.toString(), err.toString());
  }

  List<String> errLines() {
    return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
