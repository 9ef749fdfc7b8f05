package io.livegate.scan;

import static io.livegate.scan.testing.Scans.execution;
import static io.livegate.scan.testing.Scans.graphScan;
import static io.livegate.scan.testing.Scans.units;
import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.core.stack.DeployStack;
import io.livegate.core.stack.Reason;
import io.livegate.scan.testing.TestRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unit changes when a file terraform reads for it changes, whatever the file is called: any file
 * of a local {@code terraform.source} (terragrunt copies the directory whole: v1.1.3
 * internal/getter/filecopy.go), and any file of a local module that its .tf files call with {@code
 * module { source = "./..." }} or {@code "../..."}, followed through the modules' own .tf files
 * (terraform reads a local module's directory in place).
 *
 * <p>The live repository: {@code prod/api} sources {@code modules//api}, whose main.tf calls {@code
 * ../network}, which calls {@code ./subnets}, which renders {@code rules.yaml} with templatefile();
 * {@code prod/worker} has no source and calls {@code ../../lib/queue} from its own main.tf, which
 * calls {@code ../shared}; {@code prod/static} calls only a registry module; nothing calls {@code
 * catalog/unused}.
 */
class ModuleChangesTest {
  @TempDir Path dir;
  private TestRepo repo;
  private String base;

  @BeforeEach
  void createRepo() {
    repo = TestRepo.create(dir);
    repo.write(
        "modules/api/main.tf",
        "module \"network\" {\n  source = \"../network\"\n}\n"
            + "module \"dns\" {\n  source  = \"terraform-aws-modules/route53/aws\"\n"
            + "  version = \"2.0.0\"\n}\n");
    repo.write("modules/network/main.tf", "module \"subnets\" {\n  source = \"./subnets\"\n}\n");
    repo.write(
        "modules/network/subnets/main.tf",
        "locals {\n  rules = yamldecode(templatefile(\"${path.module}/rules.yaml\", {}))\n}\n");
    repo.write("modules/network/subnets/rules.yaml", "allow: [443]\n");
    repo.write("lib/queue/main.tf", "module \"shared\" {\n  source = \"../shared\"\n}\n");
    repo.write("lib/queue/policy.json.tpl", "{}\n");
    repo.write("lib/shared/main.tf", "resource \"terraform_data\" \"shared\" {}\n");
    repo.write("lib/shared/limits.yaml", "max: 10\n");
    repo.write("catalog/unused/main.tf", "resource \"terraform_data\" \"x\" {}\n");
    repo.write("prod/api/terragrunt.hcl", "terraform {\n  source = \"../../modules//api\"\n}\n");
    repo.write("prod/worker/terragrunt.hcl", "");
    repo.write("prod/worker/main.tf", "module \"queue\" {\n  source = \"../../lib/queue\"\n}\n");
    repo.write("prod/static/terragrunt.hcl", "");
    repo.write(
        "prod/static/main.tf",
        "module \"site\" {\n  source = \"cloudposse/static-website/aws\"\n}\n");
    base = repo.commit("units calling local modules");
  }

  @AfterEach
  void closeRepo() {
    repo.close();
  }

  private DeployStack scanAfter(String message) {
    return graphScan(repo, base, repo.commit(message));
  }

  @Test
  void anyFileOfTheCopiedSourceTreeChangesTheUnitEvenInAModuleNothingCalls() {
    repo.write("modules/README.md", "# modules\n");

    DeployStack stack = scanAfter("modules docs");

    assertThat(units(stack)).containsExactly("prod/api");
    assertThat(execution(stack, "prod/api").reasons())
        .containsExactly(Reason.readsChangedFile("modules/README.md", "terraform.source"));
  }

  @Test
  void yamlFileOfAModuleCalledThroughTwoLocalModulesChangesTheUnit() {
    repo.write("modules/network/subnets/rules.yaml", "allow: [443, 80]\n");

    DeployStack stack = scanAfter("open port 80");

    assertThat(units(stack)).containsExactly("prod/api");
    assertThat(execution(stack, "prod/api").reasons())
        .containsExactly(
            Reason.readsChangedFile("modules/network/subnets/rules.yaml", "module source"));
  }

  @Test
  void templateOfALocalModuleCalledFromTheUnitsOwnMainTfChangesTheUnit() {
    repo.write("lib/queue/policy.json.tpl", "{\"Version\": \"2012-10-17\"}\n");

    DeployStack stack = scanAfter("queue policy");

    assertThat(units(stack)).containsExactly("prod/worker");
    assertThat(execution(stack, "prod/worker").reasons())
        .containsExactly(Reason.readsChangedFile("lib/queue/policy.json.tpl", "module source"));
  }

  @Test
  void yamlFileOfAModuleThatAnotherLocalModuleCallsChangesTheUnit() {
    repo.write("lib/shared/limits.yaml", "max: 20\n");

    DeployStack stack = scanAfter("raise the limit");

    assertThat(units(stack)).containsExactly("prod/worker");
    assertThat(execution(stack, "prod/worker").reasons())
        .containsExactly(Reason.readsChangedFile("lib/shared/limits.yaml", "module source"));
  }

  @Test
  void aModuleNoUnitCallsChangesNothing() {
    repo.write("catalog/unused/main.tf", "resource \"terraform_data\" \"y\" {}\n");

    assertThat(scanAfter("unused module").executions()).isEmpty();
  }

  @Test
  void callingALocalModuleIsItselfAChangeAndItsFilesCountFromThen() {
    repo.write(
        "prod/static/main.tf",
        "module \"site\" {\n  source = \"cloudposse/static-website/aws\"\n}\n"
            + "module \"queue\" {\n  source = \"../../lib/queue\"\n}\n");
    String head = repo.commit("static calls the queue module");
    repo.write("lib/queue/policy.json.tpl", "{\"a\": 1}\n");

    DeployStack stack = graphScan(repo, head, repo.commit("queue policy again"));

    assertThat(units(stack)).containsExactly("prod/static", "prod/worker");
  }
}
