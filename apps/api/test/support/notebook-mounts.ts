import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Unmounts (lazily) every notebook home volume still mounted below `dir`, so that a test's data
 * directory can be removed: a notebook stopped by a job the closing app did not wait for keeps its
 * home mounted on the host.
 */
export function unmountNotebookHomes(dir: string): void {
  const targets = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((target): target is string => Boolean(target?.startsWith(`${dir}/`)));
  for (const target of targets.reverse()) execFileSync('umount', ['-l', target]);
}
