package io.livegate.lambdas;

import com.fasterxml.jackson.databind.JsonNode;
import io.livegate.aws.AwsClients;
import io.livegate.sql.Metadb;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * A handler's SnapStart priming, as a CRaC runtime hook: when Lambda publishes a version of a
 * SnapStart function it initialises the handler, runs {@code beforeCheckpoint} and snapshots the
 * JVM, so what priming runs (classes loaded, code run once) is in the snapshot instead of on the
 * first event after a restore. Priming opens no connection and reads no secret, so the snapshot
 * holds nothing that is stale when restored, and {@code afterRestore} has nothing to do.
 *
 * <p>The hooks are registered with the global CRaC context ({@code org.crac}), which Lambda's
 * runtime drives; on a JVM without CRaC, registering does nothing. The registered hooks are also
 * kept here, strongly referenced, so that {@link #primeRegistered} can run what a checkpoint would:
 * the cold-start benchmark measures the first event after priming with it.
 */
public final class SnapStartPriming implements Resource {
  private static final List<SnapStartPriming> REGISTERED = new CopyOnWriteArrayList<>();

  private final Runnable prime;

  private SnapStartPriming(Runnable prime) {
    this.prime = prime;
  }

  /** Registers {@code prime} to run before the snapshot. */
  public static void register(Runnable prime) {
    SnapStartPriming hook = new SnapStartPriming(prime);
    REGISTERED.add(hook);
    Core.getGlobalContext().register(hook);
  }

  /**
   * What a wiring's priming runs: every SDK client's dry call ({@link AwsClients#prime}), JDBI's
   * setup (no connection), and one canned event read and one answer written through {@link
   * Handlers} (Jackson's paths). None of it opens a connection or reads a secret.
   */
  public static void prime(AwsClients aws, Metadb metadb) {
    aws.prime();
    metadb.jdbi();
    JsonNode event =
        Handlers.read(
            new ByteArrayInputStream(
                "{\"version\":\"2.0\",\"headers\":{\"content-type\":\"application/json\"},\"body\":\"{}\"}"
                    .getBytes(StandardCharsets.UTF_8)),
            "the priming event");
    try {
      Handlers.write(OutputStream.nullOutputStream(), event);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs every registered priming, as {@code beforeCheckpoint} would. */
  public static void primeRegistered() {
    REGISTERED.forEach(hook -> hook.prime.run());
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) {
    prime.run();
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to reset: priming opened no connection and read no secret.
  }
}
