/**
 * The ECS tasks' entry point (create-deploy-stack, terra-run, pr-plan) and their wiring from the
 * task environment.
 */
package io.livegate.tasks;
