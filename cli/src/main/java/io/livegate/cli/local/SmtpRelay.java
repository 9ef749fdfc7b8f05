package io.livegate.cli.local;

import io.livegate.core.LivegateException;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Sends the outbox's vote requests on through an SMTP server ({@code --smtp-url}), so that local
 * votes reach people. {@code smtp://HOST[:PORT]} upgrades to TLS with STARTTLS whenever the server
 * offers it, and insists on it with {@code ?starttls=required}; {@code smtps://HOST[:PORT]} speaks
 * TLS from the start. A user name and password come from {@value #USERNAME} and {@value #PASSWORD}
 * (never from the command line, which other users can read); they are only sent over TLS, or to a
 * relay on this machine (a loopback address).
 */
public final class SmtpRelay {
  /** The environment variable of the SMTP user name. */
  public static final String USERNAME = "LIVEGATE_SMTP_USERNAME";

  /** The environment variable of the SMTP password. */
  public static final String PASSWORD = "LIVEGATE_SMTP_PASSWORD";

  /** How long connecting, and each read or write, may take: a dead relay must not hold a vote. */
  private static final String TIMEOUT_MILLIS = "30000";

  private final String url;
  private final String protocol;
  private final String host;
  private final int port;
  private final String from;
  private final Optional<String> username;
  private final String password;
  private final Session session;

  private SmtpRelay(
      String url,
      String protocol,
      String host,
      int port,
      String from,
      Optional<String> username,
      String password,
      Properties properties) {
    this.url = url;
    this.protocol = protocol;
    this.host = host;
    this.port = port;
    this.from = from;
    this.username = username;
    this.password = password;
    this.session = Session.getInstance(properties);
  }

  /**
   * Reads {@code --smtp-url} and the credentials in {@code environment}; a URL it cannot use is an
   * error naming the option.
   *
   * @param from the sender the messages name ({@code --smtp-from})
   */
  public static SmtpRelay of(String url, String from, Map<String, String> environment) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new LivegateException("--smtp-url " + url + " is not a URL: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme();
    if (!scheme.equals("smtp") && !scheme.equals("smtps")) {
      throw new LivegateException(
          "--smtp-url "
              + url
              + " must start with smtp:// (STARTTLS when offered) or smtps:// (TLS), e.g."
              + " smtp://mail.example.com:587");
    }
    if (uri.getHost() == null) {
      throw new LivegateException("--smtp-url " + url + " names no host, e.g. smtp://HOST:587");
    }
    if (uri.getUserInfo() != null) {
      throw new LivegateException(
          "--smtp-url "
              + url
              + " must not carry a user or password (the command line is visible to other users):"
              + " set "
              + USERNAME
              + " and "
              + PASSWORD);
    }
    String query = uri.getQuery() == null ? "" : uri.getQuery();
    if (!query.isEmpty() && !query.equals("starttls=required")) {
      throw new LivegateException(
          "--smtp-url " + url + ": the only setting it takes is ?starttls=required, not " + query);
    }
    try {
      new InternetAddress(from, true);
    } catch (AddressException e) {
      throw new LivegateException("--smtp-from " + from + " is not a mail address", e);
    }
    boolean implicitTls = scheme.equals("smtps");
    int port = uri.getPort() > 0 ? uri.getPort() : implicitTls ? 465 : 25;
    Optional<String> username =
        Optional.ofNullable(environment.get(USERNAME)).filter(name -> !name.isEmpty());
    String password = environment.getOrDefault(PASSWORD, "");
    if (username.isEmpty() && !password.isEmpty()) {
      throw new LivegateException(PASSWORD + " is set but " + USERNAME + " is not");
    }
    String prefix = "mail." + scheme + ".";
    Properties properties = new Properties();
    properties.put(prefix + "host", uri.getHost());
    properties.put(prefix + "port", Integer.toString(port));
    properties.put(prefix + "from", from);
    properties.put(prefix + "connectiontimeout", TIMEOUT_MILLIS);
    properties.put(prefix + "timeout", TIMEOUT_MILLIS);
    properties.put(prefix + "writetimeout", TIMEOUT_MILLIS);
    properties.put(prefix + "ssl.checkserveridentity", "true");
    properties.put(prefix + "auth", Boolean.toString(username.isPresent()));
    if (!implicitTls) {
      properties.put(prefix + "starttls.enable", "true");
      // A password never crosses the network in clear text: only a relay on this machine may
      // take it without TLS.
      boolean required =
          query.equals("starttls=required") || (username.isPresent() && !loopback(uri.getHost()));
      properties.put(prefix + "starttls.required", Boolean.toString(required));
    }
    return new SmtpRelay(url, scheme, uri.getHost(), port, from, username, password, properties);
  }

  /** The sender the messages name. */
  public String from() {
    return from;
  }

  /**
   * Sends one RFC 5322 message (as the outbox wrote it) to {@code recipient}.
   *
   * @throws LivegateException naming the relay and the recipient when the relay refuses it
   */
  public void send(String recipient, byte[] message) {
    try {
      MimeMessage mime = new MimeMessage(session, new ByteArrayInputStream(message));
      try (Transport transport = session.getTransport(protocol)) {
        transport.connect(
            host, port, username.orElse(null), username.isPresent() ? password : null);
        transport.sendMessage(mime, new InternetAddress[] {new InternetAddress(recipient, true)});
      }
    } catch (MessagingException e) {
      throw new LivegateException(
          "cannot mail " + recipient + " through " + url + ": " + e.getMessage(), e);
    }
  }

  private static boolean loopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
