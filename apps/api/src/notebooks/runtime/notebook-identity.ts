import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The host user and group each notebook runs as: one of its own, so that what the kernel keeps
 * per user (the user keyring, key quotas, inotify and process counts, the right to signal or
 * trace a process, files in /tmp) is never shared between two notebooks.
 *
 * The ids come from a range no Debian user, subordinate-id range (100000 + 65536 × n) or
 * systemd-managed range uses; each is claimed by exclusively creating `<registry>/<uid>`, which
 * names its notebook, so two API processes on one host cannot hand out the same id.
 */
export const NOTEBOOK_UID_BASE = 2_000_000_000;
export const NOTEBOOK_UID_COUNT = 100_000_000;

export interface NotebookIdentity {
  uid: number;
  gid: number;
}

export class NotebookIdentities {
  constructor(
    /** Where the claims are kept (root-only). */
    private readonly registry: string,
    private readonly base = NOTEBOOK_UID_BASE,
    private readonly count = NOTEBOOK_UID_COUNT,
  ) {}

  /**
   * The notebook's identity, claimed on first use. `identityFile` is kept in the notebook's own
   * (root-owned) directory, so that it goes with the notebook's files and is removed with them.
   */
  async of(notebookId: string, identityFile: string): Promise<NotebookIdentity> {
    const kept = await readFile(identityFile, 'utf8')
      .then((text) => JSON.parse(text) as NotebookIdentity)
      .catch(() => undefined);
    if (kept && this.inRange(kept.uid)) return kept;
    await mkdir(this.registry, { recursive: true, mode: 0o700 });
    // Start from a place derived from the id, so that claims rarely meet; step on when one is taken.
    const start = createHash('sha256').update(notebookId).digest().readUInt32BE(0) % this.count;
    for (let step = 0; step < 1000; step++) {
      const uid = this.base + ((start + step) % this.count);
      try {
        await writeFile(path.join(this.registry, String(uid)), notebookId, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      const identity = { uid, gid: uid };
      await writeFile(identityFile, JSON.stringify(identity), { mode: 0o600 });
      return identity;
    }
    throw new Error('No free notebook user id is left in the configured range.');
  }

  /** Gives the notebook's id back, once its files are gone. */
  async release(identityFile: string): Promise<void> {
    const kept = await readFile(identityFile, 'utf8')
      .then((text) => JSON.parse(text) as NotebookIdentity)
      .catch(() => undefined);
    if (kept && this.inRange(kept.uid)) await rm(path.join(this.registry, String(kept.uid)), { force: true });
  }

  private inRange(uid: unknown): uid is number {
    return Number.isInteger(uid) && (uid as number) >= this.base && (uid as number) < this.base + this.count;
  }
}
