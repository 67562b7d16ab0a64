// Durations as the client shows and reads them: h:mm, signed for balances; typed as h:mm or decimal hours.

/** 90 → "1:30", -5 → "-0:05". */
export function formatMinutes(minutes: number): string {
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minutes));
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** A balance always carries its sign: "+1:30", "-0:05", "0:00". */
export function formatBalance(minutes: number): string {
  return minutes > 0 ? `+${formatMinutes(minutes)}` : formatMinutes(minutes);
}

/** The running timer: whole minutes as h:mm, then the seconds so that it visibly ticks. */
export function formatTimer(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  return `${formatMinutes(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * A typed duration in minutes, or undefined: "7:30", "-1:05", "+0:45", whole or decimal hours ("8",
 * "7.5", "7,5", "1.5h", "1,5 h"), minutes ("90m", "90 min"), or both ("1h30", "1h 30m").
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase().replace(/\s+/g, ' ');
  let match = /^([+-]?)(\d{1,4})(?::([0-5]\d))?$/.exec(value);
  if (match) return signed(match[1], Number(match[2]) * 60 + Number(match[3] ?? 0));
  match = /^([+-]?)(\d{0,4}(?:[.,]\d{1,2})?) ?(?:h|hours?|std)?$/.exec(value);
  if (match && match[2] && /\d/.test(match[2])) return signed(match[1], Math.round(Number(match[2].replace(',', '.')) * 60));
  match = /^([+-]?)(\d{1,5}) ?(?:m|min|minutes?)$/.exec(value);
  if (match) return signed(match[1], Number(match[2]));
  match = /^([+-]?)(\d{1,4}) ?h ?([0-5]?\d) ?(?:m|min)?$/.exec(value);
  if (match) return signed(match[1], Number(match[2]) * 60 + Number(match[3]));
  return undefined;
}

function signed(sign: string | undefined, minutes: number): number {
  return sign === '-' ? -minutes : minutes;
}

/** Minutes as decimal hours for a target field: 480 → "8", 450 → "7.5", 455 → "7:35" (h:mm where a decimal would round). */
export function formatHours(minutes: number, decimalSeparator = '.'): string {
  if (minutes % 60 === 0) return String(minutes / 60);
  if ((minutes * 100) % 60 === 0) return String(minutes / 60).replace('.', decimalSeparator);
  return formatMinutes(minutes);
}
