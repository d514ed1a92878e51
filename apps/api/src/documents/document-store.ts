import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LocalFileStore } from '../storage/file-store';

/**
 * Where document bytes live. An upload is first spooled to a local temporary file (so it can be
 * checked and scanned without holding it in memory) and committed only once it is accepted; a
 * crash mid-upload leaves only a spooled file, which the next start removes.
 */
export interface DocumentStore {
  /** Creates what the store needs and removes what interrupted uploads left behind. */
  prepare(): Promise<void>;
  /** Streams an upload through `through` into a temporary file; returns its path. */
  receive(key: string, source: Readable, through: Transform): Promise<string>;
  /** Makes an accepted upload the document `key` (atomically: all of it or nothing). */
  commit(temporary: string, key: string): Promise<void>;
  discard(temporary: string): Promise<void>;
  /** The document's bytes; rejects when it cannot be read. */
  open(key: string): Promise<Readable>;
  remove(key: string): Promise<void>;
}

/** Keys are generated UUIDs; anything else is refused rather than trusted as a path or object name. */
export function assertStorageKey(key: string): void {
  if (!/^[0-9a-f-]{36}$/.test(key)) throw new Error(`Invalid storage key ${key}`);
}

/** The local spool of uploads in progress, shared by every store. */
export class UploadSpool {
  constructor(readonly dir: string) {}

  async prepare(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    for (const name of await fs.readdir(this.dir)) await fs.rm(path.join(this.dir, name), { force: true });
  }

  async receive(key: string, source: Readable, through: Transform): Promise<string> {
    assertStorageKey(key);
    const temporary = path.join(this.dir, `${key}.partial`);
    const target = createWriteStream(temporary, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(source, through, target);
    } catch (error) {
      // The file is opened asynchronously: a body that fails at once can fail before it is, and the
      // file then appears after a removal made straight away. Removed once the stream has closed.
      await new Promise<void>((resolve) => (target.closed ? resolve() : target.once('close', () => resolve())));
      await this.discard(temporary);
      throw error;
    }
    return temporary;
  }

  async discard(temporary: string): Promise<void> {
    await fs.rm(temporary, { force: true });
  }
}

/**
 * Documents on local disk under DATA_DIR/documents (the embedded default): the platform's local
 * file store (the one workbench files use too), with uploads spooled beside it.
 */
export class LocalDocumentStore implements DocumentStore {
  private readonly spool: UploadSpool;
  private readonly files: LocalFileStore;

  constructor(root: string) {
    this.spool = new UploadSpool(path.join(root, '.incoming'));
    this.files = new LocalFileStore(root);
  }

  async prepare(): Promise<void> {
    await this.files.prepare();
    await this.spool.prepare();
  }

  receive = (key: string, source: Readable, through: Transform) => this.spool.receive(key, source, through);
  discard = (temporary: string) => this.spool.discard(temporary);

  async commit(temporary: string, key: string): Promise<void> {
    assertStorageKey(key);
    // A rename within one file system: the document appears whole or not at all.
    await this.files.publish(temporary, key);
  }

  async open(key: string): Promise<Readable> {
    assertStorageKey(key);
    return this.files.open(key);
  }

  async remove(key: string): Promise<void> {
    assertStorageKey(key);
    await this.files.remove(key);
  }
}
