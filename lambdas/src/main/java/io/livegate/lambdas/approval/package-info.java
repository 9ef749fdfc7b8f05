/** The approval-request (mail the voters) and approval-response (the vote pages) handlers. */
package io.livegate.lambdas.approval;
