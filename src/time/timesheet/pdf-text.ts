// What a month PDF says, read back (docs/teams.md, "The seal"; `timetrack report verify`): the sheet's
// identity from the document information, and every text the page shows with its position, decoded
// through the fonts' ToUnicode maps (the embedded fonts) or byte for byte (Courier, the digest's font).
// It reads the PDFs this project draws (./pdf.ts); a file rewritten by another program may not be
// readable, which verify reports as a failure, never as a match.
import { inflateSync } from 'node:zlib';
import { IDENTITY_KEY } from './seal.js';
import type { DrawnText } from './pdf.js';

/** A text the page shows, at the start of its line (x from the left, y as the page's text matrix has it). */
export interface ShownText {
  x: number;
  y: number;
  text: string;
}

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

/** Every `N 0 obj … endobj` of the file, streams inflated where they are FlateDecode. */
function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+) 0 obj\b/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = header.lastIndex;
    const end = text.indexOf('endobj', start);
    if (end === -1) break;
    const streamWord = />>\s*stream(\r\n|\n)/g;
    streamWord.lastIndex = start;
    const stream = streamWord.exec(text);
    if (!stream || stream.index > end) {
      objects.set(Number(match[1]), { dict: text.slice(start, end) });
      header.lastIndex = end;
      continue;
    }
    const dict = text.slice(start, stream.index + 2);
    const dataStart = stream.index + stream[0].length;
    const declared = /\/Length (\d+)(?!\s+\d+\s+R)/.exec(dict);
    const dataEnd = declared ? dataStart + Number(declared[1]) : text.indexOf('endstream', dataStart);
    const raw = pdf.subarray(dataStart, dataEnd);
    objects.set(Number(match[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
    header.lastIndex = Math.max(dataEnd, start);
  }
  return objects;
}

/** A PDF literal string's bytes as text: escapes undone; UTF-16BE with its byte order mark, else Latin-1. */
function literalString(body: string): string {
  const bytes = body.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, escaped: string) => {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    if (escaped in simple) return simple[escaped]!;
    return /^[0-7]/.test(escaped) ? String.fromCharCode(parseInt(escaped, 8)) : '';
  });
  if (!bytes.startsWith('\u00fe\u00ff')) return bytes;
  return Buffer.from(bytes.slice(2), 'latin1').swap16().toString('utf16le');
}

/** The identity the sheet carries in its document information (./seal.ts), or null. */
function identityIn(objects: Map<number, PdfObject>): unknown {
  for (const object of objects.values()) {
    const reference = new RegExp(`/${IDENTITY_KEY} (\\d+) 0 R`).exec(object.dict);
    const direct = new RegExp(`/${IDENTITY_KEY} \\(((?:\\\\.|[^\\\\)])*)\\)`).exec(object.dict);
    const literal = reference ? /^\s*\(((?:\\.|[^\\)])*)\)\s*$/.exec(objects.get(Number(reference[1]))?.dict ?? '')?.[1] : direct?.[1];
    if (literal === undefined) continue;
    try {
      return JSON.parse(literalString(literal)) as unknown;
    } catch {
      return null;
    }
  }
  return null;
}

/** A ToUnicode map: bfrange (with arrays or a start) and bfchar entries, code → text. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const units = (hex: string) => String.fromCharCode(...(hex.replace(/\s+/g, '').match(/.{4}/g) ?? []).map((unit) => parseInt(unit, 16)));
  for (const [, section] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const arrays = /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g;
    for (const [, from, , list] of section!.matchAll(arrays)) {
      [...list!.matchAll(/<([0-9a-fA-F\s]+)>/g)].forEach(([, hex], index) => map.set(parseInt(from!, 16) + index, units(hex!)));
    }
    for (const [, from, to, start] of section!.replace(arrays, '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const first = parseInt(from!, 16);
      for (let code = first; code <= parseInt(to!, 16); code += 1) map.set(code, String.fromCharCode(parseInt(start!, 16) + code - first));
    }
  }
  for (const section of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, hex] of section[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(code!, 16), units(hex!));
  }
  return map;
}

type Decoder = (bytes: Buffer) => string;

/** Each font name of the page's resources (/F1 …) with the decoding of its strings. */
function fontsOf(objects: Map<number, PdfObject>): Map<string, Decoder> {
  const fonts = new Map<string, Decoder>();
  for (const object of objects.values()) {
    const list = /\/Font\s*<<([^>]*)>>/.exec(object.dict)?.[1];
    for (const [, name, id] of list?.matchAll(/\/([^\s/]+)\s+(\d+) 0 R/g) ?? []) {
      const font = objects.get(Number(id))?.dict ?? '';
      const cmapId = /\/ToUnicode (\d+) 0 R/.exec(font)?.[1];
      const stream = cmapId ? objects.get(Number(cmapId))?.stream : undefined;
      if (stream) {
        const map = toUnicode(stream.toString('latin1'));
        fonts.set(name!, (bytes) => Array.from({ length: bytes.length >> 1 }, (_, index) => map.get(bytes.readUInt16BE(index * 2)) ?? '\ufffd').join(''));
      } else fonts.set(name!, (bytes) => bytes.toString('latin1'));
    }
  }
  return fonts;
}

/** The strings of a text object's show operators (hex and literal), as bytes. */
function shownBytes(block: string): Buffer {
  const parts: Buffer[] = [];
  for (const [, hex, literal] of block.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)/g)) {
    parts.push(hex !== undefined ? Buffer.from(hex.replace(/\s+/g, ''), 'hex') : Buffer.from(literalString(literal!), 'latin1'));
  }
  return Buffer.concat(parts);
}

/** The sheet's identity and the texts its page shows, in the order they are drawn. */
export function readSheetPdf(pdf: Buffer): { identity: unknown; texts: ShownText[] } {
  const objects = objectsOf(pdf);
  const fonts = fontsOf(objects);
  const texts: ShownText[] = [];
  const contents = [...objects.values()].flatMap((object) =>
    /\/Type\s*\/Page\b/.test(object.dict)
      ? [...(/\/Contents\s*(\[[^\]]*\]|\d+ 0 R)/.exec(object.dict)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]))
      : [],
  );
  for (const id of contents) {
    const stream = objects.get(id)?.stream?.toString('latin1') ?? '';
    for (const [, block] of stream.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
      const position = [...block!.matchAll(/(-?[\d.]+)\s+(-?[\d.]+)\s+Tm/g)].pop();
      const font = /\/([^\s/]+)\s+[\d.]+\s+Tf/.exec(block!)?.[1];
      const shows = block!.replace(/^[\s\S]*?Tf/, '');
      const decode = (font ? fonts.get(font) : undefined) ?? ((bytes: Buffer) => bytes.toString('latin1'));
      texts.push({ x: Number(position?.[1] ?? NaN), y: Number(position?.[2] ?? NaN), text: decode(shownBytes(shows)) });
    }
  }
  return { identity: identityIn(objects), texts };
}

/** One place where the file shows another text than the sheet drawn from the database. */
export interface TextDifference {
  /** `days/2026-02-10 worked`, `totals balance`, `seal/digest`, … */
  where: string;
  file: string | null;
  database: string | null;
}

/** How far (in points) a text may sit from its row's line and still belong to it: rows are 9 points apart at least. */
const ROW_TOLERANCE = 3.5;

/**
 * Compares the texts of a file with those of the sheet drawn again (`drawn`, with its trace: one
 * DrawnText per text, in the same order). Each text of the file is placed in the drawn cell of its row
 * whose box holds its x; what differs is named by row and column. Rows in `skip` are not compared.
 */
export function compareSheetTexts(file: ShownText[], drawn: ShownText[], trace: DrawnText[], skip: ReadonlySet<string>): TextDifference[] {
  if (drawn.length !== trace.length) throw new Error('the sheet drawn again does not read back as drawn');
  const cells = trace.map((entry, index) => ({ ...entry, y: drawn[index]!.y, key: '' }));
  const seen = new Map<string, number>();
  for (const cell of cells) {
    const name = cell.column ? `${cell.row} ${cell.column}` : cell.row;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    cell.key = count > 1 ? `${name} #${count}` : name;
  }
  const expected = new Map(cells.map((cell) => [cell.key, cell.text]));
  const found = new Map<string, string>();
  for (const shown of file) {
    const nearest = Math.min(...cells.map((cell) => Math.abs(cell.y - shown.y)));
    const cell = cells.find((c) => Math.abs(c.y - shown.y) === nearest && nearest <= ROW_TOLERANCE && shown.x >= c.x - 0.5 && shown.x <= c.x + c.space + 0.5);
    const key = cell?.key ?? `text at ${shown.x.toFixed(1)},${shown.y.toFixed(1)}`;
    found.set(key, found.has(key) ? `${found.get(key)} ${shown.text}` : shown.text);
  }
  const differences: TextDifference[] = [];
  for (const key of new Set([...expected.keys(), ...found.keys()])) {
    const row = cells.find((cell) => cell.key === key)?.row;
    if (row !== undefined && skip.has(row)) continue;
    if (expected.get(key) !== found.get(key)) differences.push({ where: key, file: found.get(key) ?? null, database: expected.get(key) ?? null });
  }
  return differences;
}
