import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from '../src/http/request-logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, root: pino({ level: 'info' }, stream) };
}

/** The logger Fastify would give a request with this id. */
const requestLogger = (root: pino.Logger, reqId: string) =>
  lazyRequestLogger.call(undefined as never, root as never, { reqId }, {}, undefined as never);

describe('request logger', () => {
  it("writes each level through a child bound to the request's id, honouring the level", () => {
    const { lines, root } = capture();
    const log = requestLogger(root, 'req-12345678');
    log.info({ detail: 1 }, 'info line');
    log.debug('below the level');
    log.warn('warn line');
    log.error(new Error('boom'), 'error line');
    expect(lines.map((line) => [line.level, line.msg, line.reqId])).toEqual([
      [30, 'info line', 'req-12345678'],
      [40, 'warn line', 'req-12345678'],
      [50, 'error line', 'req-12345678'],
    ]);
    expect(lines[0]!.detail).toBe(1);
    expect(log.level).toBe('info');
  });

  it('makes the child only when the request first logs', () => {
    const { root } = capture();
    let made = 0;
    const counting = Object.assign(Object.create(root), {
      child: (...args: Parameters<typeof root.child>) => {
        made += 1;
        return root.child(...args);
      },
    });
    const log = requestLogger(counting, 'req-87654321');
    expect(made).toBe(0);
    log.info('first');
    log.info('second');
    expect(made).toBe(1);
  });
});
