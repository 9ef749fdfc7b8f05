/**
 * Drift: what planning every unit at the trunk head found. A unit drifted when its plan shows
 * changes; a unit that could not be planned is an error, never "no drift". The report and its JSON
 * (docs/drift.md) are what {@code livegate drift} prints.
 */
package io.livegate.core.drift;
