import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_DIR, startApiProcess, stopApiProcess } from './support/api-process';

const run = promisify(execFile);
const startServer = startApiProcess;

describe('the embedded database has one owner', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-lock-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, API_PORT: '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'first-admin-password' };
  delete env.DATABASE_URL;
  let server: ReturnType<typeof startServer>;

  beforeAll(async () => {
    server = startServer(env);
    const output = await server.ready;
    expect(output).toContain('First administrator created: admin@example.org (password from ADMIN_PASSWORD)');
  });
  afterAll(async () => {
    await stopApiProcess(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second server refuses to start, with a clear message', async () => {
    const second = run(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: API_DIR, env });
    await expect(second).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`Another process is already using the data directory ${dataDir}`),
    });
  });

  it('the command line refuses too, and never opens the database behind the server', async () => {
    const cli = run(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', 'admin', 'create', '--email', 'x@example.org'], { cwd: API_DIR, env });
    await expect(cli).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('needs the embedded database to itself') });
  });

  it('after a clean stop the same data directory is reused', async () => {
    await stopApiProcess(server.child);
    server = startServer(env);
    const output = await server.ready;
    expect(output).not.toContain('First administrator created');
  });
});
