package io.livegate.lambdas;

import static org.assertj.core.api.Assertions.assertThat;

import io.livegate.lambdas.admin.AdminHandler;
import io.livegate.lambdas.approval.ApprovalRequestHandler;
import io.livegate.lambdas.approval.ApprovalResponseHandler;
import io.livegate.lambdas.migrate.MigrateHandler;
import io.livegate.lambdas.trigger.TriggerHandler;
import io.livegate.lambdas.webhook.WebhookHandler;
import io.livegate.statemachine.RuntimeContract;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CDK app names the handlers from the contract; the names must follow the classes. */
class HandlerNamesTest {
  @Test
  void everyHandlerNameInTheContractIsTheHandlersClass() {
    assertThat(
            List.of(
                RuntimeContract.Handlers.WEBHOOK,
                RuntimeContract.Handlers.TRIGGER,
                RuntimeContract.Handlers.APPROVAL_REQUEST,
                RuntimeContract.Handlers.APPROVAL_RESPONSE,
                RuntimeContract.Handlers.MIGRATE,
                RuntimeContract.Handlers.ADMIN))
        .containsExactly(
            WebhookHandler.class.getName(),
            TriggerHandler.class.getName(),
            ApprovalRequestHandler.class.getName(),
            ApprovalResponseHandler.class.getName(),
            MigrateHandler.class.getName(),
            AdminHandler.class.getName());
  }
}
