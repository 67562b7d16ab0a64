// The version and CHANGELOG.md agree (scripts/changelog-check.mjs): the checkout's newest released
// section is package.json's version, and the check names a version the changelog does not know.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changelogMismatch, unreleasedWarning } from '../../scripts/changelog-check.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('release version and changelog', () => {
  it("the checkout's version is the changelog's newest release", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(changelogMismatch(version, fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'))).toBeUndefined();
  });

  it('a bumped version without its changelog section, or a section without the bump, is refused in words', () => {
    const changelog = '# Changelog\n\n## Unreleased\n\n- a change\n\n## 0.2.0\n\n- older\n\n## 0.1.0\n';
    expect(changelogMismatch('0.2.0', changelog)).toBeUndefined();
    expect(changelogMismatch('0.3.0', changelog)).toMatch(/package.json says 0.3.0 but the newest release in CHANGELOG.md is 0.2.0/);
    expect(changelogMismatch('0.1.0', changelog)).toMatch(/newest release in CHANGELOG.md is 0.2.0/);
    expect(changelogMismatch('0.1.0', '# Changelog\n\n## Unreleased\n')).toMatch(/names no released version/);
  });

  it('a tarball built while "Unreleased" has entries is warned about: it would carry the newest release\'s name', () => {
    const pending = '# Changelog\n\n## Unreleased\n\n- a change\n\n## 0.2.0\n\n- older\n';
    expect(unreleasedWarning('0.2.0', pending)).toMatch(
      /^CHANGELOG.md has entries under "Unreleased": this tarball is named 0.2.0 but holds changes released in no version/,
    );
    expect(unreleasedWarning('0.3.0', '# Changelog\n\n## Unreleased\n\n## 0.3.0\n\n- a change\n\n## 0.2.0\n')).toBeUndefined();
    expect(unreleasedWarning('0.3.0', '# Changelog\n\n## 0.3.0\n\n- a change\n')).toBeUndefined();
  });
});
