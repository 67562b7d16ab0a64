// pino for serve and the commands: pretty (pino-pretty) on a terminal or in dev mode, JSON otherwise.
// Credentials are redacted wherever they could appear in a logged object.
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'password',
  'new_password',
  'old_password',
  'token',
  'reset_token',
  'password_hash',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.token',
  '*.reset_token',
  '*.password_hash',
];

export interface LoggerOptions {
  level: string;
  pretty: boolean;
  /** Colours in pretty lines (a terminal without NO_COLOR). */
  color: boolean;
  destination: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // The query string is left out: whatever a client puts there stays out of the log.
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: req.url?.split('?')[0], remoteAddress: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  if (options.pretty) {
    // Loaded only when used: a JSON logger needs none of it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    return pino(base, pretty({ destination: options.destination, colorize: options.color, sync: true }));
  }
  return pino(base, options.destination);
}

/** The message of the per-request line (the fail2ban filter in config/ matches it). */
export const REQUEST_LOG_MESSAGE = 'request completed';

/**
 * The fields of the per-request line, in the order they are written. `reqId` first, where a request's
 * child logger puts it (after `pid` and `hostname`): the line is written from the application's logger.
 */
export function requestLogLine(reqId: string, method: string, path: string, status: number, client: string, elapsedMs: number) {
  return { reqId, method, path, status, client, duration_ms: Math.round(elapsedMs * 10) / 10 };
}
