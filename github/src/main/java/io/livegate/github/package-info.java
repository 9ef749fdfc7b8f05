/**
 * The GitHub REST adapter on the JDK's HTTP client: commit statuses and livegate's pull request
 * comment, with bounded retries on server errors and rate limits. No AWS: the token comes from a
 * supplier that each entry point's wiring builds.
 */
package io.livegate.github;
