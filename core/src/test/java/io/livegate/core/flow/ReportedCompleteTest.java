package io.livegate.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportedCompleteTest {
  /** What terraform 1.11 printed for a create whose state it then could not save (a full disk). */
  private static final String CREATED_THEN_STATE_LOST =
      "terraform_data.unit: Creating...\n"
          + "terraform_data.unit: Provisioning with 'local-exec'...\n"
          + "terraform_data.unit (local-exec): Executing: [\"/bin/sh\" \"-c\" \"dd ...\"]\n"
          + "terraform_data.unit: Creation complete after 2s"
          + " [id=7da13360-43ec-16d6-2511-f9ca88eb1aee]\n";

  @Test
  void aCreateThatTheApplyReportedCompleteIsFoundAmongThePlannedChanges() {
    assertThat(
            ReportedComplete.among(
                CREATED_THEN_STATE_LOST,
                List.of("terraform_data.unit: create", "terraform_data.other: create")))
        .containsExactly("terraform_data.unit: create");
  }

  @Test
  void aCreateThatTheApplyOnlyStartedIsNotReportedComplete() {
    assertThat(
            ReportedComplete.among(
                "terraform_data.unit: Creating...\n", List.of("terraform_data.unit: create")))
        .isEmpty();
  }

  @Test
  void theRestOfAReplaceWhoseDeleteWasReportedIsNotTheDeleteAgain() {
    assertThat(
            ReportedComplete.among(
                "terraform_data.a: Destroying... [id=1]\n"
                    + "terraform_data.a: Destruction complete after 0s\n",
                List.of("terraform_data.a: create")))
        .isEmpty();
  }

  @Test
  void aReplaceOfWhichEitherStepWasReportedCompleteIsFound() {
    assertThat(
            ReportedComplete.among(
                "terraform_data.a: Destruction complete after 0s\n",
                List.of("terraform_data.a: delete,create")))
        .containsExactly("terraform_data.a: delete,create");
  }

  @Test
  void aResourceInAModuleIsNotTakenForTheSameAddressAtTheRoot() {
    assertThat(
            ReportedComplete.among(
                "module.m.terraform_data.a: Modifications complete after 0s\n",
                List.of("terraform_data.a: update")))
        .isEmpty();
  }

  @Test
  void terragruntsPrefixBeforeTheLineStillReportsIt() {
    assertThat(
            ReportedComplete.among(
                "12:00:01.123 STDOUT terraform: terraform_data.a[\"x: y\"]: Modifications complete"
                    + " after 1s\n",
                List.of("terraform_data.a[\"x: y\"]: update")))
        .containsExactly("terraform_data.a[\"x: y\"]: update");
  }

  @Test
  void aDeposedObjectsDestructionIsNotTheCurrentObjects() {
    assertThat(
            ReportedComplete.among(
                "terraform_data.a (deposed object 1a2b3c4d): Destruction complete after 0s\n",
                List.of("terraform_data.a: delete")))
        .isEmpty();
  }
}
