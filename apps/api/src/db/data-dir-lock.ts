import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** Thrown when another process already owns the data directory. */
export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another process is already using the data directory ${dataDir}. ` +
        'The embedded database allows one owner: stop the running platform first ' +
        '(if none is running, a crashed one left the lock; it expires within 10 seconds).',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes the exclusive lock on DATA_DIR. PGlite and DuckDB each allow one owning process;
 * a second owner would silently lose committed rows, so it is refused instead.
 * Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, 'owner.lock'),
      stale: 10_000,
      update: 2_000,
      realpath: false,
      onCompromised: (error) => {
        // Someone removed or took our lock: carrying on could corrupt the database.
        process.stderr.write(`Lost the lock on ${dataDir}: ${error.message}. Stopping.\n`);
        process.exit(1);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw error;
  }
}

/** Whether some process holds the data directory now. */
export async function isDataDirLocked(dataDir: string): Promise<boolean> {
  if (!fs.existsSync(dataDir)) return false;
  return lockfile.check(dataDir, { lockfilePath: path.join(dataDir, 'owner.lock'), stale: 10_000, realpath: false });
}
