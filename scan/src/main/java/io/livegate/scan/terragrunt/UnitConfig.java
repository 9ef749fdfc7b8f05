package io.livegate.scan.terragrunt;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What livegate reads from one unit's terragrunt config.
 *
 * @param unit the unit id: its repo-relative directory
 * @param dependencies its declared dependencies, own and included, after merging
 * @param reads the files and module directories outside the unit that it reads
 * @param warnings things that could not be read but do not stop a scan
 * @param exclusion why terragrunt would leave it out of plan and apply; empty when it would not
 * @param stackFingerprint for a unit that a stack generates, what its generation depends on besides
 *     its source's files (see {@link GeneratedUnit#fingerprint()})
 */
public record UnitConfig(
    String unit,
    List<DependencyDeclaration> dependencies,
    Set<FileRead> reads,
    List<String> warnings,
    Optional<Exclusion> exclusion,
    Optional<String> stackFingerprint) {
  public UnitConfig {
    dependencies = List.copyOf(dependencies);
    reads = Set.copyOf(reads);
    warnings = List.copyOf(warnings);
    Objects.requireNonNull(exclusion, "exclusion");
    Objects.requireNonNull(stackFingerprint, "stackFingerprint");
  }
}
