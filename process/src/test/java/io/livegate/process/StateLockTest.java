package io.livegate.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Reading the holder of a state lock from terraform's refusal, and telling whose lock it is. */
class StateLockTest {
  /** What terraform 1.11 prints when the S3 backend's lock file is held (-no-color). */
  private static final String S3_REFUSAL =
      """
      Error: Error acquiring the state lock

      Error message: operation error S3: PutObject, https response error
      StatusCode: 412, RequestID: 7Q, api error PreconditionFailed: At least one of the
      pre-conditions you specified did not hold
      Lock Info:
        ID:        144de0c6-2916-4610-6ebe-b1d7b3e1d6ea
        Path:      tfstate/app/terraform.tfstate
        Operation: OperationTypeApply
        Who:       deployer@runner-1
        Version:   1.11.4
        Created:   2026-11-25 04:40:42.488419975 +0000 UTC
        Info:     \s


      Terraform acquires a state lock to protect the state from being written
      """;

  private static final StateLock.ApplyStart STARTED =
      new StateLock.ApplyStart(Instant.parse("2026-11-25T04:40:41.9Z"), "deployer@runner-1");

  @Test
  void theHolderIsReadFromTheLockInfoBlock() {
    assertThat(StateLock.holder(S3_REFUSAL))
        .contains(
            new StateLock(
                "144de0c6-2916-4610-6ebe-b1d7b3e1d6ea",
                "OperationTypeApply",
                "deployer@runner-1",
                Instant.parse("2026-11-25T04:40:42.488419975Z")));
  }

  @Test
  void theBoxedDiagnosticsOfAColouredRunReadTheSame() {
    String boxed = S3_REFUSAL.lines().map(line -> "│ " + line).reduce("", (a, b) -> a + b + "\n");

    assertThat(StateLock.holder(boxed).map(StateLock::id))
        .contains("144de0c6-2916-4610-6ebe-b1d7b3e1d6ea");
  }

  @Test
  void outputWithoutALockRefusalHasNoHolder() {
    assertThat(StateLock.holder("Error: Unsupported argument\n  ID: not-a-lock\n")).isEmpty();
  }

  @Test
  void theLockOfTheRecordedApplyIsRecognised() {
    assertThat(StateLock.holder(S3_REFUSAL).orElseThrow().leftBy(STARTED)).isTrue();
  }

  @Test
  void aLockTakenBeforeTheApplyStartedIsSomeoneElses() {
    StateLock.ApplyStart later =
        new StateLock.ApplyStart(Instant.parse("2026-11-25T04:45:00Z"), "deployer@runner-1");

    assertThat(StateLock.holder(S3_REFUSAL).orElseThrow().leftBy(later)).isFalse();
  }

  @Test
  void aLockOfAnotherUserOrHostIsSomeoneElses() {
    StateLock.ApplyStart elsewhere = new StateLock.ApplyStart(STARTED.at(), "deployer@runner-2");

    assertThat(StateLock.holder(S3_REFUSAL).orElseThrow().leftBy(elsewhere)).isFalse();
  }

  @Test
  void aPlansLockIsNeverTakenForTheApplys() {
    String plan = S3_REFUSAL.replace("OperationTypeApply", "OperationTypePlan");

    assertThat(StateLock.holder(plan).orElseThrow().leftBy(STARTED)).isFalse();
  }

  /**
   * The http backend names the requester in "Lock Info" and the holder only by its id: the block
   * says plan, so a resumed run never breaks that lock.
   */
  @Test
  void theHttpBackendsRequesterBlockIsNeverTakenForTheHolder() {
    String http =
        S3_REFUSAL
            .replace("operation error S3", "HTTP remote state already locked: ID=16a4f6b4")
            .replace("OperationTypeApply", "OperationTypePlan");

    assertThat(StateLock.holder(http).orElseThrow().leftBy(STARTED)).isFalse();
  }
}
