/**
 * The deploy flow of one execution: its states, its decision and the plan it reads. Shared by the
 * local executor and the AWS runtime.
 */
package io.livegate.core.flow;
