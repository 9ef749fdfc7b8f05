/** Local processes: the command-runner adapter that starts terraform or terragrunt from an argv. */
package io.livegate.process;
