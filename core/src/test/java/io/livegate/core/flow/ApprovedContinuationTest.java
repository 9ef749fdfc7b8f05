package io.livegate.core.flow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApprovedContinuationTest {
  @Test
  void whatIsLeftOfAnApprovedChangeUnchangedIsApproved() {
    assertThat(
            ApprovedContinuation.unapproved(
                List.of("terraform_data.a: create", "terraform_data.b: update"),
                List.of("terraform_data.b: update")))
        .isEmpty();
  }

  @Test
  void aReplaceWhoseDeleteIsDoneContinuesWithItsCreate() {
    assertThat(
            ApprovedContinuation.unapproved(
                List.of("terraform_data.a: delete,create"), List.of("terraform_data.a: create")))
        .isEmpty();
  }

  @Test
  void aCreateBeforeDestroyReplaceWhoseCreateIsDoneContinuesWithTheDeposedObjectsDelete() {
    assertThat(
            ApprovedContinuation.unapproved(
                List.of("module.m.terraform_data.a[\"x: y\"]: create,delete"),
                List.of("module.m.terraform_data.a[\"x: y\"]: delete")))
        .isEmpty();
  }

  @Test
  void aStepThatNoApprovedChangeHoldsGoesBackToTheVoters() {
    assertThat(
            ApprovedContinuation.unapproved(
                List.of(
                    "terraform_data.a: delete,create",
                    "terraform_data.b: create",
                    "terraform_data.c: update"),
                List.of(
                    "terraform_data.a: delete",
                    "terraform_data.b: delete",
                    "terraform_data.c: delete,create",
                    "terraform_data.d: create",
                    "terraform_data.e: create")))
        .containsExactly(
            "terraform_data.a: delete",
            "terraform_data.b: delete",
            "terraform_data.c: delete,create",
            "terraform_data.d: create",
            "terraform_data.e: create");
  }
}
