package io.livegate.aws;

import io.livegate.core.LivegateException;
import io.livegate.core.vote.Mailer;
import io.livegate.core.vote.VoteMail;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sesv2.SesV2Client;

/** Sends vote requests through SES v2, as HTML with a plain-text alternative. */
public final class SesMailer implements Mailer {
  private final SesV2Client ses;
  private final String from;

  public SesMailer(SesV2Client ses, String from) {
    this.ses = ses;
    this.from = from;
  }

  @Override
  public void send(String voter, VoteMail mail) {
    try {
      ses.sendEmail(
          request ->
              request
                  .fromEmailAddress(from)
                  .destination(destination -> destination.toAddresses(voter))
                  .content(
                      content ->
                          content.simple(
                              message ->
                                  message
                                      .subject(
                                          subject -> subject.data(mail.subject()).charset("UTF-8"))
                                      .body(
                                          body ->
                                              body.text(
                                                      text ->
                                                          text.data(mail.text()).charset("UTF-8"))
                                                  .html(
                                                      html ->
                                                          html.data(mail.html())
                                                              .charset("UTF-8"))))));
    } catch (SdkException e) {
      throw new LivegateException("SES refused the mail to " + voter + ": " + e.getMessage(), e);
    }
  }
}
