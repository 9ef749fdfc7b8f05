package io.livegate.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.livegate.core.LivegateException;
import io.livegate.core.deploy.CommitStatusPublisher.State;
import io.livegate.core.pr.PostedStatus;
import io.livegate.statemachine.TriggerEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusOutboxTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String sha(int n) {
    return String.format("%040x", n);
  }

  private static List<PostedStatus> read(List<String> events) throws IOException {
    List<PostedStatus> statuses = new ArrayList<>();
    for (String event : events) {
      JsonNode node = JSON.readTree(event);
      statuses.addAll(TriggerEvent.statuses(node.get(TriggerEvent.POST_STATUSES)));
    }
    return statuses;
  }

  @Test
  void heldStatusesAreHandedOnInOrderInEventsUnderLambdasPayloadLimitAndThenForgotten()
      throws IOException {
    StatusOutbox outbox = new StatusOutbox();
    String description = "deployment of PR #7 in progress ".repeat(10);
    for (int number = 1; number <= 2000; number++) {
      outbox.publish(
          "acme/live",
          sha(number),
          "livegate/merge-lock",
          State.PENDING,
          description,
          "https://livegate.example/" + number);
    }
    List<String> events = new ArrayList<>();

    assertThat(outbox.handTo(events::add)).isEqualTo(2000);

    assertThat(events).hasSizeGreaterThan(1);
    assertThat(events).allSatisfy(event -> assertThat(event.length()).isLessThan(256 * 1024));
    List<PostedStatus> statuses = read(events);
    assertThat(statuses).hasSize(2000);
    assertThat(statuses.get(0))
        .isEqualTo(
            new PostedStatus(
                "acme/live",
                sha(1),
                "livegate/merge-lock",
                State.PENDING,
                description,
                "https://livegate.example/1"));
    assertThat(statuses.get(1999).sha()).isEqualTo(sha(2000));
    assertThat(outbox.handTo(events::add)).isZero();
  }

  @Test
  void aPostStatusesEventWithoutAStateOrCommitIsRefusedByName() throws IOException {
    JsonNode noState =
        JSON.readTree("[{\"repository\":\"acme/live\",\"sha\":\"abc\",\"context\":\"c\"}]");
    JsonNode noSha =
        JSON.readTree("[{\"repository\":\"acme/live\",\"context\":\"c\",\"state\":\"SUCCESS\"}]");

    assertThatThrownBy(() -> TriggerEvent.statuses(noState))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("postStatuses names no commit state");
    assertThatThrownBy(() -> TriggerEvent.statuses(noSha))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("postStatuses lacks a repository, sha or context");
  }
}
