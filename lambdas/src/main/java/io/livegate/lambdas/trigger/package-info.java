/** The trigger handler: deployment events and Step Functions status changes into the engine. */
package io.livegate.lambdas.trigger;
