package io.livegate.scan.hcl;

import java.util.List;
import java.util.function.Supplier;

/** What an expression's names and function calls mean where it is evaluated. */
public interface Scope {

  /**
   * The value of a root name such as {@code local}, {@code include} or {@code dependency}, or an
   * {@link Unknown} that says why there is none.
   */
  Object variable(String name, String file, int line);

  /**
   * Calls a function. Arguments are evaluated on demand, so that {@code try()} can skip failing
   * ones.
   */
  Object call(String function, List<Supplier<Object>> arguments, String file, int line);
}
