package io.livegate.tests.scenarios;

import java.nio.file.Path;

/**
 * A live repository in a temp dir: a git repository whose merge is {@code base..head}.
 *
 * @param accounts the accounts file's text (docs/accounts.md)
 */
public record LiveRepo(Path root, String base, String head, String accounts) {}
