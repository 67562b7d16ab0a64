// Output of commands: --json prints one JSON document on stdout; otherwise plain lines or a table.

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** A plain text table with a header row, columns padded to their widest cell. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  printLines(format(headers), ...rows.map(format));
}

/** What a command prints: `json` with --json, else the lines of `text`. */
export interface CommandOutput {
  json: unknown;
  text: string[];
}

export function printOutput(output: CommandOutput, asJson: boolean | undefined): void {
  if (asJson) printJson(output.json);
  else printLines(...output.text);
}
