package io.livegate.sql.testing;

import io.livegate.core.flow.FlowCallback;
import io.livegate.core.flow.FlowDecision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A flow callback that records every answer, and keeps Step Functions' rule that a task token is
 * answered once: a second answer to the same token is recorded but reported as refused.
 */
public final class RecordingFlowCallback implements FlowCallback {
  private final List<String> answers = new ArrayList<>();
  private final Set<String> answered = new HashSet<>();

  @Override
  public synchronized boolean decide(String taskToken, FlowDecision decision) {
    answers.add("decide " + taskToken + " " + decision.id());
    return answered.add(taskToken);
  }

  @Override
  public synchronized boolean fail(String taskToken, String error, String cause) {
    answers.add("fail " + taskToken + " " + error + ": " + cause);
    return answered.add(taskToken);
  }

  /** Every answer, as "decide TOKEN approved" or "fail TOKEN ERROR: cause". */
  public synchronized List<String> answers() {
    return List.copyOf(answers);
  }
}
