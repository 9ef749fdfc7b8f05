package io.livegate.tests.engine;

import static io.livegate.sql.testing.Webhooks.bytes;
import static io.livegate.sql.testing.Webhooks.payload;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.livegate.core.webhook.WebhookRequest;
import io.livegate.core.webhook.WebhookResponse;
import io.livegate.core.webhook.WebhookSignature;
import io.livegate.sql.testing.Webhooks;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * 10,000 mutated deliveries: bodies truncated, replaced by random bytes, with fields removed,
 * retyped or blown up, signed or not, with headers missing or mangled. No request may get a 5xx or
 * escape as an exception, and a refused request (4xx) must leave the metadb as it was. The seed is
 * fixed, so a failure reproduces; it is printed with the counts.
 */
class WebhookFuzzTest {
  private static final int REQUESTS = 10_000;
  private static final long SEED = 20261122L;
  private static final List<String> SEEDS =
      List.of(
          "pull_request.opened",
          "pull_request.synchronize",
          "pull_request.reopened",
          "pull_request.closed",
          "pull_request.labeled",
          "ping",
          "push",
          "issues.opened");
  private static final List<String> TABLES =
      List.of(
          "webhook_deliveries",
          "deployments",
          "executions",
          "pull_requests",
          "commit_statuses",
          "merge_locks");

  private final Webhooks hooks = Webhooks.fresh();
  private final Random random = new Random(SEED);

  @Test
  void tenThousandMutatedRequestsGetNo5xxAndRefusedOnesStoreNothing() {
    Map<Integer, Integer> byStatus = new TreeMap<>();
    Map<String, Long> before = counts();
    int refused = 0;
    for (int i = 0; i < REQUESTS; i++) {
      WebhookRequest request = mutated();
      WebhookResponse response;
      try {
        response = hooks.receiver.receive(request);
      } catch (RuntimeException e) {
        throw new AssertionError("request " + i + " (seed " + SEED + ") threw", e);
      }
      byStatus.merge(response.status(), 1, Integer::sum);
      assertThat(response.status()).as("request %d: %s", i, response.body()).isLessThan(500);
      if (response.status() >= 400) {
        refused++;
        Map<String, Long> after = counts();
        assertThat(after).as("request %d stored state: %s", i, response.body()).isEqualTo(before);
      } else {
        before = counts();
      }
    }
    System.out.printf(
        "webhook fuzz: %,d requests (seed %d), %,d refused, statuses %s%n",
        REQUESTS, SEED, refused, byStatus);
    assertThat(byStatus.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REQUESTS);
    assertThat(refused).as("most mutations must be refused").isGreaterThan(REQUESTS / 2);
    assertThat(byStatus).as("some mutations must still be accepted").containsKey(202);
  }

  private Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    hooks
        .engine
        .metadb
        .jdbi()
        .useHandle(
            handle -> {
              for (String table : TABLES) {
                counts.put(
                    table,
                    handle.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
              }
            });
    return counts;
  }

  private WebhookRequest mutated() {
    String seed = SEEDS.get(random.nextInt(SEEDS.size()));
    String event = seed.contains(".") ? seed.substring(0, seed.indexOf('.')) : seed;
    ObjectNode payload = payload(seed);
    byte[] body;
    switch (random.nextInt(6)) {
      case 0 -> body = truncate(bytes(payload));
      case 1 -> body = randomBytes();
      case 2 -> body = bytes(mutateFields(payload, 1 + random.nextInt(4)));
      case 3 -> body = hugeStrings(payload);
      case 4 -> body = bytes(payload);
      default -> body = garbageJson();
    }
    Map<String, String> headers = new HashMap<>();
    headers.put("X-GitHub-Event", random.nextInt(10) == 0 ? randomText(12) : event);
    headers.put(
        "X-GitHub-Delivery",
        random.nextInt(10) == 0 ? randomText(40) : "fuzz-" + random.nextLong());
    byte[] secret = WebhookSignature.secret(Webhooks.SECRET);
    switch (random.nextInt(8)) {
      case 0 -> {} // no signature
      case 1 ->
          headers.put(
              "X-Hub-Signature-256", WebhookSignature.sign(WebhookSignature.secret("wrong"), body));
      case 2 -> headers.put("X-Hub-Signature-256", randomText(71));
      default -> headers.put("X-Hub-Signature-256", WebhookSignature.sign(secret, body));
    }
    if (random.nextInt(20) == 0) {
      headers.remove(random.nextBoolean() ? "X-GitHub-Event" : "X-GitHub-Delivery");
    }
    return new WebhookRequest(headers, body);
  }

  private byte[] truncate(byte[] body) {
    byte[] cut = new byte[random.nextInt(body.length)];
    System.arraycopy(body, 0, cut, 0, cut.length);
    return cut;
  }

  private byte[] randomBytes() {
    byte[] bytes = new byte[random.nextInt(2048)];
    random.nextBytes(bytes);
    return bytes;
  }

  private byte[] garbageJson() {
    String[] shapes = {
      "null", "[]", "\"text\"", "12", "{", "{}", "{\"action\":", "[{}]", "{\"a\":1}{", "\ufeff{}"
    };
    return shapes[random.nextInt(shapes.length)].getBytes(StandardCharsets.UTF_8);
  }

  private byte[] hugeStrings(ObjectNode payload) {
    String huge = "x".repeat(100_000 + random.nextInt(400_000));
    List<ObjectNode> objects = objects(payload);
    for (int i = 0; i < 3; i++) {
      ObjectNode target = objects.get(random.nextInt(objects.size()));
      List<String> names = names(target);
      if (!names.isEmpty()) {
        target.put(names.get(random.nextInt(names.size())), huge);
      }
    }
    return bytes(payload);
  }

  /** Removes, retypes or replaces {@code count} fields anywhere in the payload. */
  private ObjectNode mutateFields(ObjectNode payload, int count) {
    List<ObjectNode> objects = objects(payload);
    for (int i = 0; i < count; i++) {
      ObjectNode target = objects.get(random.nextInt(objects.size()));
      List<String> names = names(target);
      if (names.isEmpty()) {
        continue;
      }
      String name = names.get(random.nextInt(names.size()));
      JsonNodeFactory nodes = JsonNodeFactory.instance;
      switch (random.nextInt(9)) {
        case 0 -> target.remove(name);
        case 1 -> target.putNull(name);
        case 2 -> target.put(name, random.nextLong());
        case 3 -> target.put(name, random.nextBoolean());
        case 4 -> target.put(name, randomText(random.nextInt(300)));
        case 5 -> target.set(name, nodes.arrayNode().add(1).add("two"));
        case 6 -> target.set(name, nodes.objectNode());
        case 7 -> target.put(name, "$(touch /tmp/livegate-fuzz) 'quoted' \"x\" ; rm -rf /");
        default -> target.put(name, -random.nextInt(1000));
      }
    }
    return payload;
  }

  private static List<ObjectNode> objects(JsonNode node) {
    List<ObjectNode> found = new ArrayList<>();
    collect(node, found);
    return found;
  }

  private static void collect(JsonNode node, List<ObjectNode> found) {
    if (node instanceof ObjectNode object) {
      found.add(object);
      object.elements().forEachRemaining(child -> collect(child, found));
    } else if (node instanceof ArrayNode array) {
      array.elements().forEachRemaining(child -> collect(child, found));
    }
  }

  private static List<String> names(ObjectNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  private String randomText(int length) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append((char) (random.nextInt(0x2FF) + 1));
    }
    return text.toString();
  }
}
