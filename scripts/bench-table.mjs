// Rewrites the figures table of docs/performance.md (between its bench-table markers) from the
// result file of `npm run bench`: `node scripts/bench-table.mjs [bench-results/latest.json]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = path.resolve(process.argv[2] ?? path.join(root, 'bench-results/latest.json'));
const doc = path.join(root, 'docs/performance.md');
const START = '<!-- bench-table:start (written by scripts/bench-table.mjs from bench-results/latest.json) -->';
const END = '<!-- bench-table:end -->';

const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
const cell = (row, engine, goal) => {
  const c = row.cells[engine];
  if (!c) return ['–', goal];
  const ratio = c.ratio === null ? 'n/a' : c.ratio.toFixed(2);
  const met = c.met === null ? '' : c.met ? ' ✓' : ' ✗';
  return [`${ratio}${met}`, goal];
};
const pg = results.rows.some((row) => row.cells.PostgreSQL);
const header = ['figure', 'SQLite', 'goal', ...(pg ? ['PostgreSQL', 'goal'] : [])];
const lines = results.rows
  .filter((row) => Object.keys(row.cells).length > 0)
  .map((row) => [row.figure, ...cell(row, 'SQLite', row.goal), ...(pg ? cell(row, 'PostgreSQL', row.pgGoal ?? '(none)') : [])]);
const table = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...lines.map((cells) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`),
  '',
  `${results.date.slice(0, 10)}: ${results.cores} cores (${results.cpu}), Node ${results.node}, ${results.driver}, ${results.connections} connections, ${results.seconds} s a run, ${results.rounds} alternating rounds; PostgreSQL ${results.postgresql}. ✓ met, ✗ not met.`,
].join('\n');

const text = fs.readFileSync(doc, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from === -1 || to === -1 || to < from) throw new Error(`docs/performance.md has no ${START} … ${END} markers`);
fs.writeFileSync(doc, `${text.slice(0, from + START.length)}\n${table}\n${text.slice(to)}`);
process.stdout.write(`docs/performance.md: table written from ${path.relative(root, resultsFile)} (${lines.length} rows)\n`);
