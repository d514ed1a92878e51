import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApiProcess, stopApiProcess } from './support/api-process';

const SECRET = 'not-a-real-token-but-a-secret-all-the-same';
const started: { child: ReturnType<typeof startApiProcess>['child']; dataDir: string }[] = [];

/** Starts the real API with ACCESS_LOG (unset: the default), sends one good and one refused request, and reads its log. */
async function requestsLoggedWith(accessLog: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-access-log-'));
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, API_PORT: String(port), LOG_LEVEL: 'info', DEMO_PERSONS: '0' };
  delete env.DATABASE_URL;
  if (accessLog) env.ACCESS_LOG = accessLog;
  else delete env.ACCESS_LOG;
  const server = startApiProcess(env);
  started.push({ child: server.child, dataDir });
  await server.ready;
  const base = `http://127.0.0.1:${port}`;
  const keys = await fetch(`${base}/.well-known/jwks.json`);
  const refused = await fetch(`${base}/api/v1/users/me/`, { headers: { authorization: `Bearer ${SECRET}` } });
  expect([keys.status, refused.status]).toEqual([200, 401]);
  const refusedId = refused.headers.get('x-request-id');
  const completed = () =>
    server
      .output()
      .split('\n')
      // Whole lines only: the last may still be arriving.
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request completed');
  // Log lines are written in batches, at least once a second, in the order of the requests: once the
  // refused (second) request's line is out, so is any line of the first.
  for (let waited = 0; !completed().some((line) => line.reqId === refusedId); waited += 50) {
    if (waited > 10_000) throw new Error(`the refused request was not logged: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { lines: completed(), output: server.output(), refusedId };
}

afterAll(async () => {
  for (const { child, dataDir } of started) {
    await stopApiProcess(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('the access log', () => {
  it('records refused and failed requests by default (errors), with the request id, and never the token', async () => {
    const { lines, output, refusedId } = await requestsLoggedWith(undefined);
    expect(lines).toEqual([
      expect.objectContaining({ reqId: refusedId, method: 'GET', url: '/api/v1/users/me/', statusCode: 401, ms: expect.any(Number) }),
    ]);
    expect(output).not.toContain(SECRET);
  });

  it('records every request with ACCESS_LOG=all', async () => {
    const { lines, output } = await requestsLoggedWith('all');
    expect(lines.map((line) => [line.url, line.statusCode])).toEqual([
      ['/.well-known/jwks.json', 200],
      ['/api/v1/users/me/', 401],
    ]);
    expect(output).not.toContain(SECRET);
  });
});
