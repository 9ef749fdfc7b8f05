package io.livegate.core.runner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceShortageTest {
  @Test
  void aFullDiskIsToldFromTheJvmsErrorAndNamesTheFile() {
    assertThat(
            ResourceShortage.in(
                "livegate error: cannot save the plan /state/plans/1/a.tfplan: No space left on"
                    + " device"))
        .contains(
            new ResourceShortage(
                "disk space",
                "livegate error: cannot save the plan /state/plans/1/a.tfplan: No space left on"
                    + " device"));
  }

  @Test
  void aFullDiskIsToldFromPostgresqlsErrorOnTheLineThatSaysIt() {
    assertThat(
            ResourceShortage.in(
                    "UnableToExecuteStatementException\n"
                        + "ERROR: could not extend file \"base/5/16410\": No space left on device\n"
                        + "  Hint: Check free disk space.")
                .map(ResourceShortage::describe))
        .contains(
            "ran out of disk space (ERROR: could not extend file \"base/5/16410\": No space left"
                + " on device)");
  }

  @Test
  void filesMemoryAndConnectionsRunningOutAreShortagesToo() {
    assertThat(ResourceShortage.in("open /x/y.tf: too many open files"))
        .map(ResourceShortage::resource)
        .contains("file descriptors");
    assertThat(ResourceShortage.in("fork/exec /usr/bin/terraform: cannot allocate memory"))
        .map(ResourceShortage::resource)
        .contains("memory");
    assertThat(ResourceShortage.in("FATAL: sorry, too many clients already"))
        .map(ResourceShortage::resource)
        .contains("the metadb's connections");
  }

  @Test
  void aUnitsOwnFailureIsNoShortage() {
    assertThat(ResourceShortage.in("Error: local-exec provisioner error\nexit status 3")).isEmpty();
    assertThat(ResourceShortage.in(null)).isEmpty();
  }
}
