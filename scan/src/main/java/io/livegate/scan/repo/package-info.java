/**
 * The live repository: revisions, file trees and changed files, read with JGit; and the remote git
 * sources of stacks, fetched into a cache.
 */
package io.livegate.scan.repo;
