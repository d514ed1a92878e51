import type { FastifyBaseLogger } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

/**
 * Fastify gives every request a child logger bound to its request id. Making one costs a
 * redaction pass over the bindings, yet most requests never log: the child is made on first use.
 */
export const lazyRequestLogger: FastifyChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(() => logger.child(bindings, options));

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

class LazyChildLogger implements FastifyBaseLogger {
  // Defined once on the prototype (below): per-instance closures would make seven per request.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;
  private made: FastifyBaseLogger | undefined;
  private readonly make: () => FastifyBaseLogger;

  constructor(make: () => FastifyBaseLogger) {
    this.make = make;
  }

  get logger(): FastifyBaseLogger {
    return (this.made ??= this.make());
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

for (const method of LOG_METHODS) {
  LazyChildLogger.prototype[method] = function (this: LazyChildLogger, ...args: Parameters<LogFn>) {
    this.logger[method](...args);
  } as LogFn;
}
