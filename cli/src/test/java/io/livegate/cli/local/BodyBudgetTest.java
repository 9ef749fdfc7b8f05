package io.livegate.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyBudgetTest {
  private final BodyBudget budget = new BodyBudget(100, 5, 20);

  @Test
  void bigBodiesShareAllButTheReserveAndSmallOnesStillGetIn() {
    assertThat(budget.take(40)).isTrue();
    assertThat(budget.take(40)).isTrue();
    assertThat(budget.take(6)).as("a big body may not take the reserve").isFalse();
    for (int i = 0; i < 4; i++) {
      assertThat(budget.take(5)).as("small body %d", i).isTrue();
    }
    assertThat(budget.take(1)).as("the whole budget is taken").isFalse();
    assertThat(budget.used()).isEqualTo(100);
  }

  @Test
  void whatIsGivenBackCanBeTakenAgain() {
    assertThat(budget.take(80)).isTrue();
    assertThat(budget.take(80)).isFalse();
    budget.give(80);
    assertThat(budget.take(80)).isTrue();
    assertThat(budget.used()).isEqualTo(80);
  }
}
