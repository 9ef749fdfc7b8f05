package io.livegate.scan.terragrunt;

import java.util.Set;

/**
 * A unit that a {@code terragrunt.stack.hcl} generates.
 *
 * @param unit its id: where terragrunt would generate it, e.g. {@code dev/.terragrunt-stack/vpc}
 * @param source the committed directory it is generated from (the catalog unit)
 * @param values its {@code values}, as the unit's config sees them
 * @param reads the committed files its generation read: the stack files that generate it and what
 *     they read (via {@code STACK}), and its source directory (via {@code STACK_SOURCE})
 * @param fingerprint what its generation depends on besides its source files: the source, path and
 *     values; a change of a stack file changes the unit only where this changes
 */
public record GeneratedUnit(
    String unit, String source, Object values, Set<FileRead> reads, String fingerprint) {
  public GeneratedUnit {
    reads = Set.copyOf(reads);
  }
}
