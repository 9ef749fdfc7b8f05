package io.livegate.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RepoPathsTest {
  @Test
  void aPathHasAFileNameOnlyWhenItsWholeLastPartIsThatName() {
    assertThat(RepoPaths.hasFileName("terragrunt.hcl", "terragrunt.hcl")).isTrue();
    assertThat(RepoPaths.hasFileName("live/app/terragrunt.hcl", "terragrunt.hcl")).isTrue();
    assertThat(RepoPaths.hasFileName("live/app/xterragrunt.hcl", "terragrunt.hcl")).isFalse();
    assertThat(RepoPaths.hasFileName("xterragrunt.hcl", "terragrunt.hcl")).isFalse();
    assertThat(RepoPaths.hasFileName("hcl", "terragrunt.hcl")).isFalse();
    assertThat(RepoPaths.hasFileName("live/terragrunt.hcl/main.tf", "terragrunt.hcl")).isFalse();
  }
}
