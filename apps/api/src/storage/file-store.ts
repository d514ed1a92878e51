import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Files kept by the platform under keys that are relative paths (`<workbenchId>/released/...`).
 * Everything is built first in a private staging directory and then published whole, so a reader
 * (or a notebook with the folder mounted) never sees a half-written file, even after a crash.
 * Local disk is the embedded default; an object store can implement the same interface, staging
 * locally and uploading on publish.
 */
export interface FileStore {
  /** Creates the store and removes what interrupted writes left in staging. */
  prepare(): Promise<void>;
  /** A fresh private directory on local disk to build files in before they are published. */
  stagingDir(): Promise<string>;
  /** Moves a staged file or directory into place at `key`, replacing what was there. */
  publish(staged: string, key: string): Promise<void>;
  /** Stores a stream as `key` (staged, then published); answers its size in bytes. */
  write(key: string, source: Readable): Promise<number>;
  /** The bytes of `key`; rejects when it cannot be read. */
  open(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Removes a file or a whole folder, for good; nothing there is not an error. */
  remove(key: string): Promise<void>;
  /** Where `key` is on local disk, for what must mount or read it in place (notebooks). */
  localPath(key: string): string;
  /** Drops a staging directory (after a failure). */
  discard(staged: string): Promise<void>;
}

const SEGMENT = /^[\w][\w .()+,=@-]{0,254}$/;

/** Keys are relative paths of plain segments; anything else is refused rather than trusted as a path. */
export function assertFileKey(key: string): void {
  const segments = key.split('/');
  if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..')) throw new Error(`Invalid file key ${key}`);
}

/** Files under a directory on local disk; staging is `<root>/.staging`, on the same file system. */
export class LocalFileStore implements FileStore {
  private readonly staging: string;

  constructor(private readonly root: string) {
    this.staging = path.join(root, '.staging');
  }

  async prepare(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.rm(this.staging, { recursive: true, force: true });
    await fs.mkdir(this.staging, { recursive: true, mode: 0o700 });
  }

  async stagingDir(): Promise<string> {
    const dir = path.join(this.staging, randomUUID());
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  async publish(staged: string, key: string): Promise<void> {
    const target = this.localPath(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // rename() replaces a file atomically but not a non-empty directory: move the old one aside first.
    const old = path.join(this.staging, `replaced-${randomUUID()}`);
    const replaced = await fs.rename(target, old).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await fs.rename(staged, target);
    if (replaced) await fs.rm(old, { recursive: true, force: true });
  }

  async write(key: string, source: Readable): Promise<number> {
    const dir = await this.stagingDir();
    const staged = path.join(dir, 'file');
    try {
      await pipeline(source, createWriteStream(staged, { flags: 'wx', mode: 0o600 }));
      const { size } = await fs.stat(staged);
      await this.publish(staged, key);
      return size;
    } finally {
      await this.discard(dir);
    }
  }

  async open(key: string): Promise<Readable> {
    const stream = createReadStream(this.localPath(key));
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    return stream;
  }

  async exists(key: string): Promise<boolean> {
    return fs.access(this.localPath(key)).then(
      () => true,
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.localPath(key), { recursive: true, force: true });
  }

  localPath(key: string): string {
    assertFileKey(key);
    return path.join(this.root, key);
  }

  async discard(staged: string): Promise<void> {
    if (!path.resolve(staged).startsWith(this.staging + path.sep)) throw new Error(`Not a staging path: ${staged}`);
    await fs.rm(staged, { recursive: true, force: true });
  }
}
