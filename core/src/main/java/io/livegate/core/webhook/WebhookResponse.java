package io.livegate.core.webhook;

/** The receiver's answer: an HTTP status and a one-line plain-text body that says why. */
public record WebhookResponse(int status, String body) {}
