package io.livegate.tests.architecture.cycle.left;

import io.livegate.tests.architecture.cycle.right.Right;

/** One side of a package cycle, so that ArchitectureTest can show its cycle rule fails. */
@SuppressWarnings("unused")
public final class Left {
  Right right() {
    return new Right();
  }
}
