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
  // Log lines are written in batches, at least once a second.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request completed');
  return { lines, output: server.output(), refusedId: refused.headers.get('x-request-id') };
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
