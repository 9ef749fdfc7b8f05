/**
 * Terragrunt config reading: a unit's dependencies, includes and the files it reads, evaluated by
 * livegate itself and never by running terragrunt.
 */
package io.livegate.scan.terragrunt;
