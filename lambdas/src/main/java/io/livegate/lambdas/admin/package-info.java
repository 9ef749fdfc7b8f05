/** The admin Lambda: {@code livegate admin --aws} runs the operator's commands through it. */
package io.livegate.lambdas.admin;
