/** Accounts: named groups of units under a path prefix, with their order, voters and roles. */
package io.livegate.core.account;
