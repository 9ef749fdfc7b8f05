/**
 * The operator's commands: one command record per {@code livegate admin} subcommand and for {@code
 * livegate status}, the use cases that run them the same way on the local state directory and in
 * the admin Lambda ({@link io.livegate.core.admin.RunAdminCommand}, {@link
 * io.livegate.core.admin.ReadStatus}), and the report of a deployment that status and the console
 * show.
 */
package io.livegate.core.admin;
