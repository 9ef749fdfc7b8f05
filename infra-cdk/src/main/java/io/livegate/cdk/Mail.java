package io.livegate.cdk;

import java.util.List;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ses.ConfigurationSet;
import software.amazon.awscdk.services.ses.ConfigurationSetEventDestinationOptions;
import software.amazon.awscdk.services.ses.EmailIdentity;
import software.amazon.awscdk.services.ses.EmailSendingEvent;
import software.amazon.awscdk.services.ses.EventDestination;
import software.amazon.awscdk.services.ses.Identity;
import software.amazon.awscdk.services.ses.MailFromBehaviorOnMxFailure;
import software.amazon.awscdk.services.sns.ITopic;
import software.constructs.Construct;

/**
 * Vote mail that arrives: the SES identity mail is sent from and a configuration set that every
 * message of that identity uses by default (so the sender needs no change). With {@code
 * mailDomain}, the identity is the domain, signed with Easy DKIM (2048-bit), with a custom MAIL
 * FROM domain {@code mail.<mailDomain>}: SPF then aligns with the sender's domain and DMARC passes
 * on both DKIM and SPF. Without it, the address {@code mailFrom} alone is verified, as before.
 * Bounces, complaints and rejects go to the operators' topic ({@link #sendEventsTo}), where a
 * voter's address that stopped working shows up before a vote times out. Like every construct of
 * the stack, it puts its resources in the stack ({@link LivegateStack} says why).
 */
public final class Mail extends Construct {
  /** The MAIL FROM subdomain's first label. */
  static final String MAIL_FROM_LABEL = "mail";

  /**
   * @param mailFrom the address votes are sent from
   * @param mailDomain its domain (or a parent) to verify as a domain identity; {@code null} for the
   *     address alone
   */
  public record Props(String mailFrom, String mailDomain) {}

  private final ConfigurationSet configurationSet;
  private final EmailIdentity identity;

  public Mail(Construct scope, String id, Props props) {
    super(scope, id);
    Stack stack = Stack.of(this);
    this.configurationSet =
        ConfigurationSet.Builder.create(stack, "MailConfigurationSet")
            .reputationMetrics(true)
            .sendingEnabled(true)
            .build();
    if (props.mailDomain() == null) {
      this.identity =
          EmailIdentity.Builder.create(stack, "MailFrom")
              .identity(Identity.email(props.mailFrom()))
              .configurationSet(configurationSet)
              .build();
    } else {
      String mailFromDomain = MAIL_FROM_LABEL + "." + props.mailDomain();
      this.identity =
          EmailIdentity.Builder.create(stack, "MailFrom")
              .identity(Identity.domain(props.mailDomain()))
              .dkimSigning(true)
              .mailFromDomain(mailFromDomain)
              // A missing MX record sends from amazonses.com rather than not at all: votes still
              // arrive, SPF just stops aligning until the record is there.
              .mailFromBehaviorOnMxFailure(MailFromBehaviorOnMxFailure.USE_DEFAULT_VALUE)
              .configurationSet(configurationSet)
              .build();
      dnsRecords(stack, props.mailDomain(), mailFromDomain);
    }
  }

  /** The identity vote mail is sent from; its senders need {@code grantSendEmail}. */
  public EmailIdentity identity() {
    return identity;
  }

  public ConfigurationSet configurationSet() {
    return configurationSet;
  }

  /** Bounces, complaints, rejects and rendering failures are published to {@code topic}. */
  public void sendEventsTo(ITopic topic) {
    configurationSet.addEventDestination(
        "ToOperators",
        ConfigurationSetEventDestinationOptions.builder()
            .destination(EventDestination.snsTopic(topic))
            .events(
                List.of(
                    EmailSendingEvent.BOUNCE,
                    EmailSendingEvent.COMPLAINT,
                    EmailSendingEvent.REJECT,
                    EmailSendingEvent.RENDERING_FAILURE))
            .build());
  }

  /**
   * What the operator publishes in the domain's DNS: three DKIM CNAMEs, and the MAIL FROM domain's
   * MX and SPF records (region-specific feedback host, per SES's documentation).
   */
  private void dnsRecords(Stack stack, String domain, String mailFromDomain) {
    List<String> names =
        List.of(
            identity.getDkimDnsTokenName1(),
            identity.getDkimDnsTokenName2(),
            identity.getDkimDnsTokenName3());
    List<String> values =
        List.of(
            identity.getDkimDnsTokenValue1(),
            identity.getDkimDnsTokenValue2(),
            identity.getDkimDnsTokenValue3());
    for (int i = 0; i < names.size(); i++) {
      CfnOutput.Builder.create(stack, "MailDkimRecord" + (i + 1))
          .description("DNS record for " + domain + "'s DKIM (CNAME name and value)")
          .value(Fn.join(" CNAME ", List.of(names.get(i), values.get(i))))
          .build();
    }
    CfnOutput.Builder.create(stack, "MailFromMxRecord")
        .description("DNS record for the MAIL FROM domain (MX)")
        .value(mailFromDomain + " MX 10 feedback-smtp." + stack.getRegion() + ".amazonses.com")
        .build();
    CfnOutput.Builder.create(stack, "MailFromSpfRecord")
        .description("DNS record for the MAIL FROM domain (TXT)")
        .value(mailFromDomain + " TXT \"v=spf1 include:amazonses.com ~all\"")
        .build();
  }
}
