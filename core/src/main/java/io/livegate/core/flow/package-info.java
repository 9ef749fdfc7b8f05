/**
 * The deploy flow of one execution: its states, reading plans and states, and vote links. Shared by
 * the local executor and the AWS runtime.
 */
package io.livegate.core.flow;
