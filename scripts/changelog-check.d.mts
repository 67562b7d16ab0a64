/** The sentence saying why `version` and the changelog disagree, or undefined when they agree. */
export function changelogMismatch(version: string, changelog: string): string | undefined;
/** The warning for a tarball built while "## Unreleased" has entries, or undefined when it has none. */
export function unreleasedWarning(version: string, changelog: string): string | undefined;
