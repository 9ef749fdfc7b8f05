package io.livegate.tasks;

/** What create-deploy-stack tells the trigger (an asynchronous Lambda invoke on AWS). */
public interface TriggerEvents {
  /** The deployment's stack is stored: its flows may start. */
  void deploymentCreated(long deploymentId);

  /** The deployment's stack could not be stored: it fails, and the lock passes on. */
  void scanFailed(long deploymentId, String reason);
}
