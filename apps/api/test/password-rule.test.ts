import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDbKind } from './support/test-database';

const run = promisify(execFile);
const API_DIR = path.resolve(import.meta.dirname, '..');

let env: NodeJS.ProcessEnv;
let cleanUp: () => Promise<void>;
beforeAll(async () => {
  const postgres = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-password-'));
  env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_PERSONS: '0', PASSWORD_HASH_COST: '10', ...(postgres && { DATABASE_URL: postgres.url }) };
  cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
});
afterAll(() => cleanUp());

const hdp = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', ...args], { cwd: API_DIR, env });

describe('the password rule where accounts are made on the command line', () => {
  it('refuses a guessable password with the reason, and creates nobody', async () => {
    const refused = await hdp('user', 'create', '--email', 'pat.guess@example.org', '--name', 'Pat Guess', '--roles', 'RESEARCHER', '--password', 'PatGuess2024!').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(/^password: is too easy to guess\. It contains your name or email address\./);
    const created = await hdp('user', 'create', '--email', 'pat.guess@example.org', '--roles', 'RESEARCHER', '--password', 'velvet compass drizzle');
    expect(created.stdout).toContain('Created RESEARCHER pat.guess@example.org');
  }, 180_000);
});
