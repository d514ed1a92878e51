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

/**
 * The one logger: structured JSON on stdout. Writes are buffered and asynchronous so that a
 * request never waits on the terminal or log shipper; pino flushes what is buffered on exit.
 */
export function createLogger(level: string): FastifyBaseLogger {
  return pino({ level, redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' } }, stdoutDestination()) as FastifyBaseLogger;
}

let destination: ReturnType<typeof pino.destination> | undefined;

/** One buffered stdout stream per process, however many loggers share it. */
function stdoutDestination() {
  if (!destination) {
    const created = pino.destination({ dest: 1, sync: false, minLength: 0 });
    process.once('exit', () => created.flushSync());
    destination = created;
  }
  return destination;
}
