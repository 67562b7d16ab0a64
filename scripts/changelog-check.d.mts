/** The sentence saying why `version` and the changelog disagree, or undefined when they agree. */
export function changelogMismatch(version: string, changelog: string): string | undefined;
