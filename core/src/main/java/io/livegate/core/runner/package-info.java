/**
 * The command-runner port, the terragrunt and terraform command templates, the sandbox port the
 * repository's code runs in, and livegate's private temporary directory.
 */
package io.livegate.core.runner;
