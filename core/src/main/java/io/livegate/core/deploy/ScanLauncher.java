package io.livegate.core.deploy;

/**
 * Starts create-deploy-stack for a deployment that holds the lock but whose change set is not
 * stored yet: an ECS task on AWS, a background scan locally. Launching twice for one deployment is
 * harmless, since storing a deployment's stack is idempotent.
 */
public interface ScanLauncher {
  void launch(Deployment deployment);
}
