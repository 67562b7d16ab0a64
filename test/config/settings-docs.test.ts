// The table of settings (src/config/settings.ts) against the two places that document them:
// docs/configuration.md (its table) and config/timetrack.example.env. Every setting is in both, and
// neither names a setting the table does not have.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS, SETTING_NAMES, type SettingName, type SettingSpec } from '../../src/config/settings.js';
import { PROJECT_ROOT } from '../support/cli.js';

const read = (file: string) => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

/** The rows of the settings table of docs/configuration.md: the names of its first cell, and its default cell. */
function documentedRows(): Array<{ names: string[]; default: string }> {
  return read('docs/configuration.md')
    .split('\n')
    .filter((line) => /^\|\s*`[A-Z]/.test(line))
    .map((line) => {
      const [names = '', defaultCell = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      return { names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!), default: defaultCell };
    });
}

/** The settings config/timetrack.example.env names (`NAME=` or `#NAME=` at the start of a line). */
function exampleNames(): string[] {
  return [...read('config/timetrack.example.env').matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

describe('the settings table', () => {
  it('is documented in docs/configuration.md: every setting, and nothing that is not one', () => {
    expect(sorted(documentedRows().flatMap((row) => row.names))).toEqual(sorted(SETTING_NAMES));
  });

  it('is listed in config/timetrack.example.env: every setting, and nothing that is not one', () => {
    expect(sorted(exampleNames())).toEqual(sorted(SETTING_NAMES));
  });

  it('gives the defaults docs/configuration.md states (rows of one setting with a fixed default)', () => {
    for (const row of documentedRows()) {
      const [name] = row.names;
      if (row.names.length !== 1 || name === undefined || !(name in SETTINGS)) continue;
      const spec: SettingSpec = SETTINGS[name as SettingName];
      const fallback = 'default' in spec ? spec.default : undefined;
      if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean') {
        expect(row.default, name).toBe(`\`${String(fallback)}\``);
      }
    }
  });

  it('has one line of documentation for each setting', () => {
    for (const name of SETTING_NAMES) expect(SETTINGS[name].doc, name).toMatch(/^[^\n]{10,200}$/);
  });
});
