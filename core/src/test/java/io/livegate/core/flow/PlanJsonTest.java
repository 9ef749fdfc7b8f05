package io.livegate.core.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.PlanSummary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link PlanJson} on real {@code terraform show -json} output (see the README beside it). */
class PlanJsonTest {
  private static final String BUILTIN = "terraform.io/builtin/terraform";

  @Test
  void aFirstApplyCountsAndListsEveryResourceInModulesTooAndItsProviderIsNew() throws IOException {
    PlanSummary summary = PlanJson.summary(golden("plan-first-apply.json"));

    assertThat(summary)
        .isEqualTo(
            new PlanSummary(
                5,
                0,
                0,
                List.of(BUILTIN),
                List.of(),
                List.of(
                    "module.child.terraform_data.inner: create",
                    "terraform_data.gone: create",
                    "terraform_data.grow: create",
                    "terraform_data.keep: create",
                    "terraform_data.swap: create"),
                5));
  }

  @Test
  void aReplaceCountsAsOneAddAndOneDestroyAndAProviderInTheStateIsNotNew() throws IOException {
    PlanSummary summary = PlanJson.summary(golden("plan-changes.json"));

    // fresh is created, grow updated, swap replaced, gone deleted; keep and inner are no-ops.
    assertThat(summary)
        .isEqualTo(
            new PlanSummary(
                2,
                1,
                2,
                List.of(),
                List.of("terraform_data.gone", "terraform_data.swap"),
                List.of(
                    "terraform_data.fresh: create",
                    "terraform_data.gone: delete",
                    "terraform_data.grow: update",
                    "terraform_data.swap: delete,create"),
                4));
  }

  @Test
  void aPlansChangesAreEachChangedResourceWithItsActionsAndNoOpsAreLeftOut() throws IOException {
    assertThat(PlanJson.changes(golden("plan-changes.json")))
        .containsExactly(
            "terraform_data.fresh: create",
            "terraform_data.gone: delete",
            "terraform_data.grow: update",
            "terraform_data.swap: delete,create");
  }

  @Test
  void theStatesResourcesOfAProviderAreListedByFullAddressWithoutDataSources() throws IOException {
    assertThat(PlanJson.resourcesOf(golden("state.json"), Set.of(BUILTIN)))
        .containsExactly(
            "module.child.terraform_data.inner",
            "terraform_data.gone",
            "terraform_data.grow",
            "terraform_data.keep",
            "terraform_data.swap");
    assertThat(PlanJson.resourcesOf(golden("state.json"), Set.of("registry.terraform.io/x/y")))
        .isEmpty();
  }

  @Test
  void everyManagedAddressOfTheStateIsListedWhateverItsProvider() throws IOException {
    assertThat(PlanJson.addresses(golden("state.json")))
        .containsExactly(
            "module.child.terraform_data.inner",
            "terraform_data.gone",
            "terraform_data.grow",
            "terraform_data.keep",
            "terraform_data.swap");
    assertThat(PlanJson.addresses("{\"format_version\":\"1.0\"}")).isEmpty();
  }

  @Test
  void outputThatIsNotADocumentIsAnsweredWithAMessage() {
    assertThatThrownBy(() -> PlanJson.summary("Warning: no CLI config\n{}"))
        .isInstanceOf(LivegateException.class)
        .hasMessageStartingWith("terraform show -json printed a plan that is not JSON");
    assertThatThrownBy(() -> PlanJson.resourcesOf("", Set.of(BUILTIN)))
        .isInstanceOf(LivegateException.class)
        .hasMessage("terraform show -json printed no state document");
  }

  private static String golden(String name) throws IOException {
    try (InputStream in = PlanJsonTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
