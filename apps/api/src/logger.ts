import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** Paths whose values never reach the logs. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.refresh_token',
  '*.id_token',
  '*.token',
];

/** Lines are written in batches of about this many bytes, and at least once a second. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_INTERVAL_MS = 1000;

export interface Loggers {
  /** The one logger of the API and Fastify; it redacts the paths above from whatever it is given. */
  logger: FastifyBaseLogger;
  /**
   * The access log: one line per request, with fixed fields (request id, method, path, status,
   * duration) that carry no secret, so it skips the redaction pass, which costs about as much as
   * the rest of the line.
   */
  accessLog: pino.Logger;
}

/**
 * Structured JSON on stdout. Writes are buffered and asynchronous, so that a request never waits
 * on the terminal or log shipper; what is buffered is written within a second, and on exit.
 */
export function createLoggers(level: string): Loggers {
  const destination = stdoutDestination();
  return {
    logger: pino({ level, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } }, destination) as FastifyBaseLogger,
    accessLog: pino({ level }, destination),
  };
}

let destination: ReturnType<typeof pino.destination> | undefined;

/** One buffered stdout stream per process, however many loggers share it. */
function stdoutDestination() {
  if (!destination) {
    const created = pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES });
    setInterval(() => created.flush(), LOG_FLUSH_INTERVAL_MS).unref();
    process.once('exit', () => created.flushSync());
    destination = created;
  }
  return destination;
}
