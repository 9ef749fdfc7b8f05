/**
 * One unit's step of the deploy flow, the same in every runtime: plan, apply, destroy and finishing
 * an interrupted apply, through the ports of a workspace of the commit, the plan store and the
 * terraform or terragrunt runner.
 */
package io.livegate.core.unit;
