/**
 * The pre-merge path: a pull request's head, the plans of the units it changes, and the statuses
 * and comment that show them on GitHub.
 */
package io.livegate.core.pr;
