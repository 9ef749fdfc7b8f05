/** The live repository: revisions, file trees and changed files, read with JGit. */
package io.livegate.core.repo;
