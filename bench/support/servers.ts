import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts a server process and resolves with its port once `readyPattern` (with the port as its
 * first group) shows on stdout. Until then output is kept for the error message; after that it is
 * drained unread, as a log shipper would, so logging is never throttled by this process.
 */
export function startProcess(
  command: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  readyPattern: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, command, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (ready) return;
      output += chunk.toString();
      const match = readyPattern.exec(output);
      if (match) {
        ready = true;
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.stderr!.on('data', (chunk) => {
      if (!ready) output += chunk;
    });
    child.on('exit', () => reject(new Error(`server exited: ${output}`)));
    setTimeout(() => reject(new Error(`server did not start: ${output}`)), 120_000).unref();
  });
}

/** Starts the platform API on a free port; resolves with its base URL. */
export async function startApi(env: NodeJS.ProcessEnv) {
  const port = 18_000 + Math.floor(Math.random() * 2000);
  const started = await startProcess(
    ['--import', 'tsx', 'src/main.ts'],
    path.join(repoRoot, 'apps/api'),
    // Benchmarks measure speed, not the per-user query limits against averaging: those are lifted.
    // Password-only sign-in (MFA_REQUIRED=false): the benchmarks' accounts have no second factor.
    { LOG_LEVEL: 'warn', QUERY_RATE_PER_MINUTE: '10000', QUERY_DAILY_BUDGET: '1000000', MFA_REQUIRED: 'false', ...env, API_PORT: String(port) },
    /API listening on http:\/\/127\.0\.0\.1:(\d+)/,
  );
  return { ...started, url: `http://127.0.0.1:${started.port}` };
}

/** Signs in through the API and returns an id token. */
export async function signIn(apiUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${apiUrl}/api/v1/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id_token: string }).id_token;
}

/** p-th percentile of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
