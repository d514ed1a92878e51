import { constants } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ReadStream } from 'node:fs';

/**
 * The files the platform serves from a notebook's home itself, by name ending, with the content
 * type Jupyter gives them. Any other file (HTML and SVG above all, which Jupyter serves inside a
 * sandboxing policy and whose pages the proxy rewrites) goes through Jupyter as before.
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.ipynb': 'application/x-ipynb+json',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.txt': 'text/plain; charset=UTF-8',
  '.log': 'text/plain; charset=UTF-8',
  '.md': 'text/markdown',
  '.py': 'text/x-python',
  '.r': 'text/plain; charset=UTF-8',
  '.json': 'application/json',
  '.parquet': 'application/octet-stream',
  '.feather': 'application/octet-stream',
  '.rds': 'application/octet-stream',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
};

const READ_CHUNK_BYTES = 512 * 1024;

/** The released data is mounted at this folder of the home inside the sandbox, not stored in it. */
const RELEASED_FOLDER = 'released';

export interface HomeFile {
  stream: ReadStream;
  size: number;
  modified: Date;
  contentType: string;
  name: string;
  close(): Promise<void>;
}

/**
 * Opens `relative` (a decoded path below the home, as in Jupyter's `/files/` URLs) for the platform
 * to send itself, without the second hop through the Jupyter server. Answers undefined for anything
 * it does not serve (`contentTypes`: the name endings it serves; the airlock passes its own), and the request then goes to Jupyter, which applies its own rules: a name it
 * has no type for, hidden files, the released data, and any file that is not plainly in the home.
 *
 * The notebook's user writes the home, so it may hold symbolic links to anywhere on the host, which
 * the API (a more privileged process) could read. Hence: the last component is opened with
 * O_NOFOLLOW, and the path the open file really has (/proc/self/fd, which no later rename or link
 * can change for this descriptor) must lie inside the home's own real path; a file with other hard
 * links is refused too.
 */
export async function openHomeFile(homeDir: string, relative: string, contentTypes: Readonly<Record<string, string>> = CONTENT_TYPES): Promise<HomeFile | undefined> {
  const segments = relative.split('/');
  const name = segments[segments.length - 1]!;
  const contentType = contentTypes[path.extname(name).toLowerCase()];
  if (!contentType) return undefined;
  if (segments[0] === RELEASED_FOLDER) return undefined;
  if (segments.some((s) => s === '' || s.startsWith('.') || s.includes('\0') || s.includes('\\'))) return undefined;

  let home: string;
  let handle: FileHandle;
  try {
    home = await realpath(homeDir);
    handle = await open(path.join(home, ...segments), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    const real = await readlink(`/proc/self/fd/${handle.fd}`);
    const inside = real.startsWith(`${home}/`) && !real.startsWith(`${home}/${RELEASED_FOLDER}/`);
    if (!stat.isFile() || stat.nlink !== 1 || !inside) {
      await handle.close();
      return undefined;
    }
    return {
      // Larger reads than the default 64 KiB: fewer round trips through libuv's pool per file.
      stream: handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES }),
      size: stat.size,
      modified: stat.mtime,
      contentType,
      name,
      close: () => handle.close(),
    };
  } catch {
    await handle.close().catch(() => undefined);
    return undefined;
  }
}
