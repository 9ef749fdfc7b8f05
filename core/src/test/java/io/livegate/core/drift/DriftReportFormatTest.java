package io.livegate.core.drift;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.testing.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The drift report as people read it, held to golden files; unit paths and output are escaped. */
class DriftReportFormatTest {
  private static final DriftReport REPORT =
      new DriftReport(
          "0123456789abcdef0123456789abcdef01234567",
          3,
          List.of(
              new DriftReport.DriftedUnit(
                  "dev/<app>",
                  "dev",
                  List.of("aws_instance.web: update", "terraform_data.x[\"a&b\"]: delete,create"))),
          List.of(new DriftReport.DriftError("dev/db", "dev", "exited with 1\nError: <denied>")));

  @Test
  void theTextListsEachDriftedUnitWithItsChangesThenEachError() {
    Golden.assertMatches("drift-report.txt", DriftReportFormat.text(REPORT));
  }

  @Test
  void thePageIsEscapedAndListsTheSameAsTheText() {
    Golden.assertMatches("drift-report.html", DriftReportFormat.html(REPORT));
    assertThat(DriftReportFormat.html(REPORT))
        .contains("<code>dev/&lt;app&gt;</code>")
        .doesNotContain("<denied>");
  }

  @Test
  void aReportInSyncSaysNoDrift() {
    DriftReport inSync =
        new DriftReport("0123456789abcdef0123456789abcdef01234567", 3, List.of(), List.of());

    assertThat(DriftReportFormat.text(inSync)).endsWith("no drift\n");
    assertThat(DriftReportFormat.html(inSync)).contains("<title>livegate drift: no drift</title>");
    assertThat(DriftReportFormat.write(inSync)).contains("\"inSync\" : true");
  }
}
