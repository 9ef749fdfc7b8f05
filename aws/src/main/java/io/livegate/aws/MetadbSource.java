package io.livegate.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import io.livegate.core.LivegateException;
import io.livegate.sql.Metadb;
import io.livegate.statemachine.FlowJson;
import io.livegate.statemachine.RuntimeContract;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The metadb of an AWS entry point. The URL comes from {@value RuntimeContract.Metadb#URL}; the
 * credentials from the Secrets Manager secret {@value RuntimeContract.Metadb#SECRET} (the JSON that
 * RDS generates, with username and password) or, for tests, {@value RuntimeContract.Metadb#USER}
 * and {@value RuntimeContract.Metadb#PASSWORD}. The pool is small and starts empty: it connects on
 * the first query, never while a Lambda initialises, so a SnapStart snapshot holds no connection
 * that would be stale when restored.
 */
public final class MetadbSource {
  private MetadbSource() {}

  public static Metadb connect(Map<String, String> environment, Secrets secrets) {
    return Metadb.connect(dataSource(environment, secrets));
  }

  /**
   * The metadb's connection pool, not yet connected: for the migration handler, which migrates
   * through it ({@link Metadb#open}) rather than only connecting.
   */
  public static DataSource dataSource(Map<String, String> environment, Secrets secrets) {
    String url = Env.required(environment, RuntimeContract.Metadb.URL);
    String secret = environment.get(RuntimeContract.Metadb.SECRET);
    Supplier<String[]> credentials;
    if (secret != null && !secret.isBlank()) {
      credentials =
          () -> {
            JsonNode node = parse(secrets.text(secret), secret);
            return new String[] {node.get("username").asText(), node.get("password").asText()};
          };
    } else {
      String user = Env.required(environment, RuntimeContract.Metadb.USER);
      String password = Env.optional(environment, RuntimeContract.Metadb.PASSWORD, "");
      credentials = () -> new String[] {user, password};
    }
    return new LazyPool(url, credentials);
  }

  /** A pool that is built, with its credentials, on the first connection anybody asks for. */
  private static final class LazyPool extends DataSourceAdapter {
    private final String url;
    private final Supplier<String[]> credentials;
    private HikariDataSource pool;

    LazyPool(String url, Supplier<String[]> credentials) {
      this.url = url;
      this.credentials = credentials;
    }

    @Override
    protected synchronized DataSource delegate() {
      if (pool == null) {
        String[] userAndPassword = credentials.get();
        HikariDataSource created = new HikariDataSource();
        created.setJdbcUrl(url);
        created.setUsername(userAndPassword[0]);
        created.setPassword(userAndPassword[1]);
        created.setMaximumPoolSize(2);
        created.setMinimumIdle(0);
        created.setConnectionTimeout(5_000);
        created.setPoolName("livegate-metadb");
        // No trial connection when the pool starts: with no idle minimum Hikari would open one and
        // close it again at once, doubling the connections (TLS and SCRAM on RDS) of a cold start.
        // An unreachable metadb still fails the first query, after the connection timeout.
        created.setInitializationFailTimeout(-1);
        pool = created;
      }
      return pool;
    }
  }

  private static JsonNode parse(String text, String secret) {
    try {
      JsonNode node = FlowJson.MAPPER.readTree(text);
      if (node == null
          || !node.path("username").isTextual()
          || !node.path("password").isTextual()) {
        throw new LivegateException("the secret " + secret + " has no username and password");
      }
      return node;
    } catch (IOException e) {
      throw new LivegateException("the secret " + secret + " is not JSON");
    }
  }
}
