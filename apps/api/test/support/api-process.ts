import { spawn } from 'node:child_process';
import path from 'node:path';

export const API_DIR = path.resolve(import.meta.dirname, '../..');

/** Starts the real API process; `ready` resolves with its output so far once it listens. */
export function startApiProcess(env: NodeJS.ProcessEnv) {
  // Cheap password hashes, as in the in-process test apps, unless the test sets the cost itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: API_DIR, env: { PASSWORD_HASH_COST: '10', MFA_REQUIRED: 'false', ...env }, stdio: 'pipe' });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    // A start takes 3–5 s on an idle machine and was seen to take 48 s on two cores loaded ~15 deep:
    // the limit only ends a start that hangs.
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 90_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('API listening')) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', () => reject(new Error(`server exited: ${output}`)));
  });
  return { child, ready, output: () => output };
}

/** Stops an API process with SIGTERM and waits until it has exited. */
export async function stopApiProcess(child: ReturnType<typeof startApiProcess>['child']): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
