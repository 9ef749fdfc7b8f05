/** The metadb on PostgreSQL: Flyway migrations and the JDBI stores that implement core's ports. */
package io.livegate.sql;
