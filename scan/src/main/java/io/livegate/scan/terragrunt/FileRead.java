package io.livegate.scan.terragrunt;

/**
 * A file that evaluating a unit's config read, or tried to read and found missing, so that any
 * change to it (an edit, an addition, a deletion, a rename) changes the unit.
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
    TEMPLATEFILE("templatefile"),
    SOPS_DECRYPT_FILE("sops_decrypt_file"),
    FILEEXISTS("fileexists"),
    FIND_IN_PARENT_FOLDERS("find_in_parent_folders"),
    /** The directory of a local {@code terraform { source }}: terragrunt copies it whole. */
    TERRAFORM_SOURCE("terraform.source"),
    /** A local module that the unit's terraform calls, directly or through another module. */
    MODULE_SOURCE("module source"),
    /**
     * The unit's own directory, where terraform runs when the unit has no {@code terraform { source
     * }}; it counts only for the unit itself, not for the units nested in it.
     */
    TERRAFORM_DIRECTORY("terraform directory"),
    /** A stack file that generates the unit, or a file it reads; see {@link GeneratedUnit}. */
    STACK("terragrunt.stack.hcl"),
    /** The catalog directory a generated unit is copied from. */
    STACK_SOURCE("stack unit source"),
    /**
     * The directory that {@code fileset()} listed. The files it matched are read {@link #FILE}; a
     * change under the directory changes the unit only through them, but it means the unit must be
     * read again at another commit to know what the listing gave there.
     */
    FILESET("fileset");

    private final String label;

    Via(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
