package io.livegate.sql;

import java.util.function.Supplier;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.HandleConsumer;
import org.jdbi.v3.core.Jdbi;

/**
 * A {@link Jdbi} set up on its first use, with the calls the stores make. Setting up JDBI loads
 * some hundreds of classes; a Lambda request that needs no query, such as a forged vote link, never
 * pays for it.
 */
final class LazyJdbi {
  private final Supplier<Jdbi> create;
  private Jdbi jdbi;

  LazyJdbi(Supplier<Jdbi> create) {
    this.create = create;
  }

  synchronized Jdbi get() {
    if (jdbi == null) {
      jdbi = create.get();
    }
    return jdbi;
  }

  <R, X extends Exception> R withHandle(HandleCallback<R, X> callback) throws X {
    return get().withHandle(callback);
  }

  <R, X extends Exception> R inTransaction(HandleCallback<R, X> callback) throws X {
    return get().inTransaction(callback);
  }

  <X extends Exception> void useHandle(HandleConsumer<X> consumer) throws X {
    get().useHandle(consumer);
  }
}
