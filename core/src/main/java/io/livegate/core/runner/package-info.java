/** The command-runner port and the terragrunt and terraform command templates. */
package io.livegate.core.runner;
