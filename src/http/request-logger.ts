// `request.log` without a pino child per request. Fastify gives every request a child of the
// application's logger for the `reqId` of its lines; pino's `child` serializes the bindings and
// rebuilds the level methods each time, which was a measurable share of a request that logs nothing
// but its request line (docs/performance.md). Here the child is made on the request's first line
// at an enabled level, so a line looks as before (`reqId` after `pid` and `hostname`), and a request
// that logs nothing through `request.log` (most do not: the request line is written by app.ts from
// the application's logger, with the same `reqId`) never makes one.
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArguments = Parameters<Logger['info']>;

export class RequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child, made on first use. */
  get #logger(): Logger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  #write(level: Level, args: LogArguments): void {
    // Nothing to write at a disabled level: no child needed (the parent's level is the child's).
    if (this.#child === undefined && !this.parent.isLevelEnabled(level)) return;
    this.#logger[level](...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  fatal(...args: LogArguments): void {
    this.#write('fatal', args);
  }

  error(...args: LogArguments): void {
    this.#write('error', args);
  }

  warn(...args: LogArguments): void {
    this.#write('warn', args);
  }

  info(...args: LogArguments): void {
    this.#write('info', args);
  }

  debug(...args: LogArguments): void {
    this.#write('debug', args);
  }

  trace(...args: LogArguments): void {
    this.#write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#logger.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route with a log level of its own gets a real child at once
 * (its level is not the parent's); no route of timetrack sets one.
 */
export function requestLoggerFactory(logger: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger | RequestLogger {
  if (options.level !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings, options);
}
