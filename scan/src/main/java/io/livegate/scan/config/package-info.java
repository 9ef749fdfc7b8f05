/** livegate's own configuration read from HCL: the accounts file. */
package io.livegate.scan.config;
