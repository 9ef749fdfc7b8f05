package io.livegate.core.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExecutionNamesTest {
  private static final String VALID = "[A-Za-z0-9_-]{1,80}";

  /** Characters a unit path may hold, odd ones included; the rocket takes two chars. */
  private static final List<String> ALPHABET =
      List.of(
          "a", "Z", "0", "9", "/", "-", "_", ".", " ", "'", "\"", ";", "$", "(", ")", "`", "\n",
          "\t", "\\", "é", "日", "🚀", "%", "*");

  private static String randomPath(Random random) {
    StringBuilder path = new StringBuilder();
    int length = 1 + random.nextInt(random.nextBoolean() ? 12 : 300);
    for (int index = 0; index < length; index++) {
      path.append(ALPHABET.get(random.nextInt(ALPHABET.size())));
    }
    return path.toString();
  }

  @Test
  void theSameUnitInTheSameDeploymentAlwaysGetsTheSameName() {
    String unit = "dev-account/us-west-2/env-one/bar";

    assertThat(ExecutionNames.of(7, unit, false)).isEqualTo(ExecutionNames.of(7, unit, false));
    assertThat(ExecutionNames.of(7, unit, false)).startsWith("d7-").contains("env-one-bar-");
  }

  @Test
  void tenThousandRandomOddPathsGetValidDistinctNamesForBothPhases() {
    Random random = new Random(3);
    Set<String> paths = new HashSet<>();
    while (paths.size() < 10_000) {
      paths.add(randomPath(random));
    }

    List<String> names = new ArrayList<>();
    for (String path : paths) {
      names.add(ExecutionNames.of(42, path, false));
      names.add(ExecutionNames.of(42, path, true));
    }

    assertThat(names).allSatisfy(name -> assertThat(name).matches(VALID)).doesNotHaveDuplicates();
  }

  @Test
  void aRollbackIsNamedApartFromTheExecutionItUndoes() {
    String unit = "shared-services-account/global";

    assertThat(ExecutionNames.of(3, unit, true))
        .startsWith("d3-rb-")
        .isNotEqualTo(ExecutionNames.of(3, unit, false));
  }

  @Test
  void pathsThatReadTheSameAreToldApartByTheirHash() {
    List<String> names =
        List.of("a b", "a-b", "a/b", "a--b", "a;b", "a\nb").stream()
            .map(unit -> ExecutionNames.of(1, unit, false))
            .toList();

    assertThat(names).allSatisfy(name -> assertThat(name).startsWith("d1-a-b-"));
    assertThat(names).doesNotHaveDuplicates();
  }

  @Test
  void theLargestDeploymentIdAndALongPathStillFitInEightyCharacters() {
    String unit = "x".repeat(290) + "/env-one/bar";

    for (boolean rollback : List.of(false, true)) {
      String name = ExecutionNames.of(Long.MAX_VALUE, unit, rollback);
      assertThat(name).matches(VALID).startsWith("d" + Long.MAX_VALUE).contains("env-one-bar-");
    }
  }

  @Test
  void aPathWithNothingReadableIsCalledUnit() {
    assertThat(ExecutionNames.of(5, "日本/🚀/'", false)).matches("d5-unit-[0-9a-f]{12}");
  }
}
