/**
 * Votes: asking the voters (signed per-voter links, the mail), the confirm page and its form,
 * recording a vote, and the tally against the thresholds.
 */
package io.livegate.core.vote;
