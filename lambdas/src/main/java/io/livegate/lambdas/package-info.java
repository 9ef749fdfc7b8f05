/** What the Lambda handlers share: reading events, writing answers, SnapStart priming. */
package io.livegate.lambdas;
