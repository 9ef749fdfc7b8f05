package io.livegate.core.unit;

import io.livegate.core.deploy.Execution;
import java.nio.file.Path;

/**
 * Where an execution's plan file and its text are kept between Plan and Apply (as Atlantis's plan
 * store): a directory in the local state directory, or the artifact bucket on AWS. The execution
 * records the plan's {@link #reference}, which means the same in both runtimes; Apply loads the
 * file back and applies it only if its SHA-256 is the one recorded at plan time.
 */
public interface PlanStore {
  /**
   * The reference of the plan of {@code execution}: {@code plans/<deployment>/<execution>.tfplan}.
   */
  static String reference(Execution execution) {
    return "plans/" + execution.deploymentId() + "/" + execution.name() + ".tfplan";
  }

  /**
   * Keeps {@code planFile} and {@code planText} as the plan of {@code execution}.
   *
   * @return its {@link #reference}, for the execution's record
   */
  String save(Execution execution, Path planFile, String planText);

  /** Copies the plan file of {@code reference} to {@code target}, replacing what is there. */
  void load(String reference, Path target);

  /** The plan's text for a confirm page, or a note saying why there is none. */
  String text(String reference);
}
