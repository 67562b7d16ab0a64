// The version and CHANGELOG.md agree: the newest released section of the changelog is the package's
// version. A release bumps package.json's version and moves "Unreleased" under a heading of that version
// (CHANGELOG.md, docs/operations.md "Upgrading"); `npm run release` refuses a version the changelog does
// not name, and test/ops/release-changelog.test.ts checks the checkout.

/** The sentence saying why `version` and the changelog's text disagree, or undefined when they agree. */
export function changelogMismatch(version, changelog) {
  const released = [...changelog.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]).filter((heading) => heading !== 'Unreleased');
  if (released.length === 0) return `CHANGELOG.md names no released version; package.json says ${version}`;
  if (released[0] !== version) {
    return `package.json says ${version} but the newest release in CHANGELOG.md is ${released[0]}: a release bumps the version and moves "Unreleased" under "## <version>"`;
  }
  return undefined;
}

/**
 * The warning for a tarball built while "## Unreleased" has entries: it carries the name of the newest
 * release but holds changes released in no version (installed by the docs' lines it would unpack into
 * that release's own folder); undefined when "Unreleased" is empty or absent.
 */
export function unreleasedWarning(version, changelog) {
  const section = /^## Unreleased\s*$([\s\S]*?)(?=^## )/m.exec(changelog)?.[1] ?? '';
  if (section.trim() === '') return undefined;
  return `CHANGELOG.md has entries under "Unreleased": this tarball is named ${version} but holds changes released in no version, and would unpack into /usr/lib/timetrack/${version}; a release bumps package.json's version and moves "Unreleased" under "## <version>"`;
}
