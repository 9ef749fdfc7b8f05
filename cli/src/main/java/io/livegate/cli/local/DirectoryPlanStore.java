package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.unit.PlanStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The local plan store: a plan's {@link PlanStore#reference} is its path in the state directory,
 * its text beside it with {@code .txt} added, both readable by their owner only. The state
 * directory is hidden from the sandbox, so no unit's code reaches a stored plan.
 */
final class DirectoryPlanStore implements PlanStore {
  private final Path stateDirectory;

  DirectoryPlanStore(Path stateDirectory) {
    this.stateDirectory = stateDirectory.toAbsolutePath().normalize();
  }

  @Override
  public String save(Execution execution, Path planFile, String planText) {
    String reference = PlanStore.reference(execution);
    Path stored = resolve(reference);
    try {
      // a deployment's directory of plans, like every file in the state directory, is the owner's
      Files.createDirectories(
          stored.getParent(),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      OwnerOnly.write(stored, Files.readAllBytes(planFile));
      OwnerOnly.write(textOf(stored), planText.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new LivegateException("cannot save the plan " + stored + ": " + e.getMessage(), e);
    }
    return reference;
  }

  @Override
  public void load(String reference, Path target) {
    Path stored = resolve(reference);
    try {
      Files.createDirectories(target.getParent());
      Files.copy(stored, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new LivegateException("cannot load the plan " + stored + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String text(String reference) {
    Path text;
    try {
      text = textOf(resolve(reference));
    } catch (LivegateException e) {
      return "(no saved plan: " + e.getMessage() + ")";
    }
    try {
      return Files.exists(text) ? Files.readString(text) : "(no saved plan)";
    } catch (IOException e) {
      return "(the saved plan cannot be read: " + e.getMessage() + ")";
    }
  }

  /** The stored file of {@code reference}, which must stay inside the state's plans directory. */
  private Path resolve(String reference) {
    Path plans = stateDirectory.resolve("plans");
    Path stored = stateDirectory.resolve(reference).normalize();
    if (!stored.startsWith(plans) || stored.equals(plans)) {
      throw new LivegateException(
          "the plan reference '" + reference + "' is not a plan of " + plans);
    }
    return stored;
  }

  private static Path textOf(Path stored) {
    return stored.resolveSibling(stored.getFileName() + ".txt");
  }
}
