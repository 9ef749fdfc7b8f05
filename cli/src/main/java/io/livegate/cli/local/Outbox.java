package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import io.livegate.core.deploy.Execution;
import io.livegate.core.vote.VoteMail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * The local mailer: one RFC 5322 message per voter, written as an .eml file (plain text and HTML)
 * into the outbox directory, where any mail client can open it, and sent on through an SMTP relay
 * when one is set ({@code --smtp-url}). The file is written first, so a relay that refuses loses no
 * link.
 */
public final class Outbox {
  private static final String LOCAL_SENDER = "livegate@localhost";

  /** The relay refused a message that the outbox holds: the voter's links are in its file. */
  public static final class NotRelayed extends LivegateException {
    NotRelayed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final Path directory;
  private final Optional<SmtpRelay> relay;

  public Outbox(Path directory, Optional<SmtpRelay> relay) {
    this.directory = directory;
    this.relay = relay;
  }

  /**
   * Writes a vote request, sends it through the relay if there is one, and returns its file.
   *
   * @throws NotRelayed when the relay refuses the message, which is in the file the error names
   * @throws LivegateException when the file cannot be written
   */
  public Path voteRequest(Execution execution, String voter, VoteMail mail) {
    String subject = mail.subject();
    String text = mail.text();
    String html = mail.html();
    String boundary = "livegate-" + UUID.randomUUID();
    String message =
        "From: livegate <"
            + header(relay.map(SmtpRelay::from).orElse(LOCAL_SENDER))
            + ">\r\n"
            + "To: "
            + header(voter)
            + "\r\n"
            + "Subject: "
            + encodedWord(subject)
            + "\r\n"
            + "Date: "
            + DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now())
            + "\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: multipart/alternative; boundary=\""
            + boundary
            + "\"\r\n\r\n"
            + part(boundary, "text/plain", text)
            + part(boundary, "text/html", html)
            + "--"
            + boundary
            + "--\r\n";
    Path file = directory.resolve(execution.name() + "--" + fileSafe(voter) + ".eml");
    try {
      // Written beside and moved into place, so that whoever watches the outbox never reads half
      // a message.
      Path partial = Files.createTempFile(directory, "writing-", ".part");
      Files.writeString(partial, message, StandardCharsets.UTF_8);
      Files.move(
          partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new LivegateException("cannot write " + file + ": " + e.getMessage(), e);
    }
    try {
      relay.ifPresent(smtp -> smtp.send(voter, message.getBytes(StandardCharsets.UTF_8)));
    } catch (LivegateException e) {
      throw new NotRelayed(e.getMessage() + "; the message is in " + file, e);
    }
    return file;
  }

  private static String part(String boundary, String type, String body) {
    String encoded = Base64.getMimeEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8));
    return "--"
        + boundary
        + "\r\nContent-Type: "
        + type
        + "; charset=UTF-8\r\n"
        + "Content-Transfer-Encoding: base64\r\n\r\n"
        + encoded
        + "\r\n";
  }

  /** Header values must not carry line breaks: a voter address comes from configuration. */
  private static String header(String value) {
    return value.replaceAll("[\\r\\n]", " ");
  }

  private static String encodedWord(String text) {
    return "=?UTF-8?B?"
        + Base64.getEncoder().encodeToString(header(text).getBytes(StandardCharsets.UTF_8))
        + "?=";
  }

  private static String fileSafe(String text) {
    return text.replaceAll("[^A-Za-z0-9@._-]", "_");
  }
}
