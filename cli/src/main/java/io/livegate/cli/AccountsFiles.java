package io.livegate.cli;

import io.livegate.core.LivegateException;
import io.livegate.core.account.Accounts;
import io.livegate.scan.config.AccountsFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads the --accounts option of every command that takes it. */
final class AccountsFiles {
  private AccountsFiles() {}

  /** The accounts in {@code file}, or the whole repository as one account when it is null. */
  static Accounts read(Path file) {
    if (file == null) {
      return Accounts.wholeRepository();
    }
    try {
      return AccountsFile.parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new LivegateException(
          "the accounts file " + file + " was not found (looked in " + file.toAbsolutePath() + ")",
          e);
    } catch (IOException e) {
      throw new LivegateException(
          "cannot read the accounts file " + file + ": " + e.getMessage(), e);
    }
  }
}
