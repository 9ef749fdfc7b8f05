package io.livegate.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class PrintableTest {
  private static final String FORGED = "livegate: FORGED deployment 1: succeeded";

  @Test
  void aMessageOnOneLineEscapesEveryControlCharacterTheNewlineToo() {
    assertThat(Printable.escape("failed:\n" + FORGED + "\u001b[2J"))
        .isEqualTo("failed:\\n" + FORGED + "\\e[2J");
  }

  @Test
  void aMessageOverSeveralLinesIndentsEveryLineAfterItsFirstSoNoneStartsAtTheMargin() {
    String message = "failed: plan exited with 1:\nError: bad\n\n" + FORGED + "\u001b[2J\n";

    assertThat(Printable.continued(message))
        .isEqualTo("failed: plan exited with 1:\n    Error: bad\n    \n    " + FORGED + "\\e[2J\n");
    assertThat(Printable.continued("one line")).isEqualTo("one line");
  }

  @Test
  void aLogWriterPrintsEachMessageWithItsLaterLinesIndented() {
    StringWriter log = new StringWriter();

    Printable.logWriter(log).println("[dev/a] failed:\n" + FORGED);
    Printable.logWriter(log).println((Object) ("tab\tand bell\u0007"));

    assertThat(log.toString().lines())
        .containsExactly("[dev/a] failed:", "    " + FORGED, "tab\tand bell\\x07");
  }
}
