import type { FastifyBaseLogger } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

/**
 * Fastify gives every request a child logger bound to its request id. Making one costs a
 * redaction pass over the bindings, yet most requests never log: the child is made on first use.
 */
export const lazyRequestLogger: FastifyChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(() => logger.child(bindings, options));

// Methods on the prototype rather than arrow-function fields: fields would make seven closures per
// request.
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;
  private readonly make: () => FastifyBaseLogger;

  constructor(make: () => FastifyBaseLogger) {
    this.make = make;
  }

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.make());
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: Parameters<LogFn>): void {
    this.logger.fatal(...args);
  }

  error(...args: Parameters<LogFn>): void {
    this.logger.error(...args);
  }

  warn(...args: Parameters<LogFn>): void {
    this.logger.warn(...args);
  }

  info(...args: Parameters<LogFn>): void {
    this.logger.info(...args);
  }

  debug(...args: Parameters<LogFn>): void {
    this.logger.debug(...args);
  }

  trace(...args: Parameters<LogFn>): void {
    this.logger.trace(...args);
  }

  silent(...args: Parameters<LogFn>): void {
    this.logger.silent(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
