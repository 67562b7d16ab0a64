// Labels of the month PDF fitted to their cells (./pdf.ts): a label shrinks, then is cut, and the
// person's line wraps, so that no text leaves its row.

/** The part of pdfkit's document that measuring a label needs. */
interface Measuring {
  fontSize(size: number): unknown;
  widthOfString(text: string): number;
}

/** The smallest size a label may shrink to before it is cut with an ellipsis. */
export const SMALLEST_LABEL_SIZE = 6.5;

/**
 * A label fitted to `width` on one line: at `size` if it fits, else at the largest size down to
 * SMALLEST_LABEL_SIZE that fits, else cut at that size and ended with "…". Measured with the
 * document's current font; the size to draw it at is returned with it.
 */
export function fitLabel(doc: Measuring, text: string, width: number, size: number): { text: string; size: number } {
  for (let candidate = size; candidate >= SMALLEST_LABEL_SIZE; candidate -= 0.5) {
    doc.fontSize(candidate);
    if (doc.widthOfString(text) <= width) return { text, size: candidate };
  }
  doc.fontSize(SMALLEST_LABEL_SIZE);
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${text.slice(0, middle).trimEnd()}…`) <= width) low = middle;
    else high = middle - 1;
  }
  return { text: `${text.slice(0, low).trimEnd()}…`, size: SMALLEST_LABEL_SIZE };
}

/**
 * Text broken into lines of at most `width` at `size` (at spaces where it can, else inside a word), at
 * most `maxLines` of them; the last one fitted by fitLabel. A long name takes lines, not the next row.
 */
export function wrapLines(doc: Measuring, text: string, width: number, size: number, maxLines: number): string[] {
  doc.fontSize(size);
  const lines: string[] = [];
  let rest = text.trim();
  while (rest !== '' && lines.length < maxLines - 1 && doc.widthOfString(rest) > width) {
    let fits = 1;
    while (fits < rest.length && doc.widthOfString(rest.slice(0, fits + 1)) <= width) fits += 1;
    const space = rest.lastIndexOf(' ', fits);
    const cut = space > 0 && rest[fits] !== undefined ? space : fits;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') lines.push(rest);
  return lines;
}
