package io.livegate.core.terragrunt;

/**
 * A file outside the unit's own directory that the unit's config reads, so that a change to it
 * changes the unit.
 *
 * @param path the repo-relative file or, for a module source, directory
 */
public record FileRead(String path, Via via) {
  /**
   * How the config reaches the file. Declared in order of rank: where a unit reaches one file in
   * several ways, the first is the one reported.
   */
  public enum Via {
    INCLUDE("include"),
    READ_TERRAGRUNT_CONFIG("read_terragrunt_config"),
    FILE("file"),
    TERRAFORM_SOURCE("terraform.source");

    private final String label;

    Via(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
