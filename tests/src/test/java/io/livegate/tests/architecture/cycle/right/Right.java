package io.livegate.tests.architecture.cycle.right;

import io.livegate.tests.architecture.cycle.left.Left;

/** The other side of the package cycle that ArchitectureTest's self-test checks. */
@SuppressWarnings("unused")
public final class Right {
  Left left() {
    return new Left();
  }
}
