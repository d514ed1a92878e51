import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The generator of the sandbox's filter (see the file for what it refuses and why). */
export const SECCOMP_GENERATOR = fileURLToPath(new URL('./seccomp-filter.py', import.meta.url));

/**
 * Writes the sandbox's seccomp filter (BPF, for bubblewrap's `--seccomp`) into `dir` and answers
 * its path. Made with libseccomp through Debian's python3-seccomp, by the system Python in
 * isolated mode (no user site, no environment), then moved into place whole.
 */
export async function writeSeccompFilter(dir: string): Promise<string> {
  const target = path.join(dir, 'seccomp.bpf');
  const partial = `${target}.${randomBytes(6).toString('hex')}`;
  try {
    await run('/usr/bin/python3', ['-I', SECCOMP_GENERATOR, partial], { env: { PATH: '/usr/bin:/bin' }, timeout: 20_000 });
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return target;
}
