package io.livegate.scan.terragrunt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Stack sources in terragrunt's (go-getter) syntax, as livegate reads them to fetch with git. */
class RemoteSourceTest {

  @Test
  void forcedGitHttpsSourceSplitsAtTheDoubleSlashAndReadsTheRef() {
    assertThat(RemoteSource.parse("git::https://example.com/acme/catalog.git//units/app?ref=v1"))
        .contains(new RemoteSource("https://example.com/acme/catalog.git", "units/app", "v1"));
  }

  @Test
  void githubShorthandIsAnHttpsCloneOfTheRepository() {
    assertThat(RemoteSource.parse("github.com/acme/catalog//units/vpc?ref=main"))
        .contains(new RemoteSource("https://github.com/acme/catalog.git", "units/vpc", "main"));
  }

  @Test
  void scpLikeSshSourceBecomesAnSshUrl() {
    assertThat(RemoteSource.parse("git::git@github.com:acme/catalog.git//units/db?ref=v2.1.0"))
        .contains(new RemoteSource("ssh://git@github.com/acme/catalog.git", "units/db", "v2.1.0"));
    assertThat(RemoteSource.parse("git@github.com:acme/catalog.git//units/db"))
        .contains(new RemoteSource("ssh://git@github.com/acme/catalog.git", "units/db", null));
  }

  @Test
  void fileUrlKeepsItsAbsolutePathAndADepthParameterIsAccepted() {
    assertThat(RemoteSource.parse("git::file:///srv/git/catalog.git//units/app?depth=1&ref=abc123"))
        .contains(new RemoteSource("file:///srv/git/catalog.git", "units/app", "abc123"));
  }

  @Test
  void sourceWithoutSubdirectoryIsTheRepositoryRoot() {
    assertThat(RemoteSource.parse("git::ssh://git@example.com/acme/app.git?ref=v1"))
        .contains(new RemoteSource("ssh://git@example.com/acme/app.git", "", "v1"));
  }

  @Test
  void pathsInTheRepositoryAreNotRemote() {
    assertThat(RemoteSource.parse("../../catalog/units/app")).isEqualTo(Optional.empty());
    assertThat(RemoteSource.parse("/repo/modules//vpc")).isEqualTo(Optional.empty());
  }

  @Test
  void kindsOtherThanGitAreNotSupported() {
    for (String source :
        new String[] {
          "s3::https://s3.amazonaws.com/bucket/units.zip//app",
          "https://example.com/units.zip//app",
          "tfr://registry.terraform.io/acme/vpc/aws?version=1.0.0",
          "hg::https://example.com/repo//app",
          "bitbucket.org/acme/catalog//units/app"
        }) {
      assertThatThrownBy(() -> RemoteSource.parse(source))
          .as(source)
          .isInstanceOf(RemoteSource.NotSupported.class)
          .hasMessageStartingWith("source kind not supported: ");
    }
  }

  @Test
  void unknownQueryParameterAndEscapingSubdirectoryAreRefused() {
    assertThatThrownBy(() -> RemoteSource.parse("git::https://example.com/a.git//x?sshkey=abc"))
        .hasMessage("the query parameter 'sshkey' is not supported (only ref and depth are)");
    assertThatThrownBy(() -> RemoteSource.parse("git::https://example.com/a.git//../x?ref=v1"))
        .hasMessage("the subdirectory '../x' leaves the repository");
  }

  @Test
  void sourceShownInAnErrorLeavesOutUserInfo() {
    assertThat(
            RemoteSource.withoutUserInfo("s3::https://AKIA:secret@s3.amazonaws.com/b/u.zip//app"))
        .isEqualTo("s3::https://s3.amazonaws.com/b/u.zip//app");
  }

  @Test
  void addressNamesAFileOfTheSourceWithoutUserInfo() {
    RemoteSource source =
        RemoteSource.parse("git::https://ci:s3cret@example.com/acme/catalog.git//units/app?ref=v1")
            .orElseThrow();

    assertThat(source.address("terragrunt.hcl"))
        .isEqualTo("https://example.com/acme/catalog.git//units/app/terragrunt.hcl?ref=v1");
  }
}
