// Durations as the client shows them: h:mm, signed for balances.

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

/** "7:30", "-1:05", "+0:45" or a bare number of hours ("8") → minutes; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*([+-]?)(\d{1,4})(?::([0-5]\d))?\s*$/.exec(text);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}
