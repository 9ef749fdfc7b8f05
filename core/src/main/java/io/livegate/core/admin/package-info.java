/**
 * The operator's commands for a stuck queue ({@code livegate admin}): one command record per
 * subcommand, and the use case that runs them the same way on the local state directory and in the
 * admin Lambda.
 */
package io.livegate.core.admin;
