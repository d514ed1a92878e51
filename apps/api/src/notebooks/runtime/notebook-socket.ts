import { lstatSync, type Stats } from 'node:fs';
import { chown, link, lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** The name of Jupyter's socket, inside the sandbox's socket directory and in the platform's. */
export const SOCKET_NAME = 'jupyter.sock';

/**
 * Where the notebooks' Unix sockets live, laid out so that the API (root) never follows a path the
 * notebook controls:
 *
 *   <root>/                     root, 0711: the platform's
 *   <root>/<id>/                root, 0700: the platform's; the proxy connects to <root>/<id>/jupyter.sock
 *   <root>/<id>/sandbox/        the notebook's user, 0700: bound at /run/nb, where Jupyter makes its socket
 *
 * Once Jupyter has made its socket, the platform hard-links that inode (never a symbolic link:
 * link() does not follow one) into the notebook's root-owned directory, checks it is a socket of the
 * notebook's own user, and from then on connects only to that link. The notebook can replace what
 * is in its own directory as it likes: the link names the inode Jupyter bound, and nothing in the
 * sandbox can write the directory that holds it.
 */
export class NotebookSockets {
  constructor(readonly root: string) {}

  /** The platform's directory of one notebook (root-owned). */
  dir(notebookId: string): string {
    return path.join(this.root, notebookId);
  }

  /** The notebook's own socket directory, bound into the sandbox. */
  sandboxDir(notebookId: string): string {
    return path.join(this.root, notebookId, 'sandbox');
  }

  /** The socket the proxy connects to (checked by `verified`). */
  socketPath(notebookId: string): string {
    return path.join(this.root, notebookId, SOCKET_NAME);
  }

  /** Makes a fresh, empty layout for a notebook about to start, its sandbox part owned by `uid`. */
  async prepare(notebookId: string, uid: number, gid: number): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o711 });
    assertPlatformDirectory(await lstat(this.root), this.root);
    const dir = this.dir(notebookId);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { mode: 0o700 });
    await mkdir(this.sandboxDir(notebookId), { mode: 0o700 });
    await chown(this.sandboxDir(notebookId), uid, gid);
  }

  /**
   * Takes Jupyter's socket from the sandbox's directory into the platform's, once it exists.
   * Answers true once the platform's link is in place and is a socket of `uid`; a link to anything
   * else (a symbolic link, a file, another user's socket) is removed and refused.
   */
  async adopt(notebookId: string, uid: number): Promise<boolean> {
    const target = this.socketPath(notebookId);
    if (this.verified(notebookId, uid)) return true;
    const made = path.join(this.sandboxDir(notebookId), SOCKET_NAME);
    try {
      // link(2) makes a link to the entry itself: a symbolic link stays a symbolic link.
      await link(made, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code !== 'EEXIST') throw error;
    }
    if (this.verified(notebookId, uid)) return true;
    await rm(target, { force: true });
    throw new Error(`The notebook's socket is not a socket of its own user: refused.`);
  }

  /**
   * The socket path to connect to, or undefined unless every part of it is as the platform made it:
   * the socket root and the notebook's directory real directories owned by root and writable by
   * root only, and the socket itself a socket (not a link to one) owned by the notebook's user.
   */
  verified(notebookId: string, uid: number): string | undefined {
    if (!SAFE_NAME.test(notebookId)) return undefined;
    try {
      const root = lstatSync(this.root);
      const dir = lstatSync(this.dir(notebookId));
      if (!isPlatformDirectory(root) || !isPlatformDirectory(dir)) return undefined;
      const socket = lstatSync(this.socketPath(notebookId));
      if (!socket.isSocket() || socket.uid !== uid) return undefined;
      return this.socketPath(notebookId);
    } catch {
      return undefined;
    }
  }

  async remove(notebookId: string): Promise<void> {
    if (!SAFE_NAME.test(notebookId)) return;
    await rm(this.dir(notebookId), { recursive: true, force: true });
  }
}

/** Notebook ids name directories: no dots, no slashes. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

function isPlatformDirectory(info: Stats): boolean {
  return info.isDirectory() && info.uid === (process.getuid?.() ?? 0) && (info.mode & 0o022) === 0;
}

function assertPlatformDirectory(info: Stats, where: string): void {
  if (!isPlatformDirectory(info)) {
    throw new Error(`The notebook socket directory ${where} must be a directory of the API's user that no one else can write.`);
  }
}

/**
 * The `ws+unix` address of a request to a notebook's Jupyter server over its socket, or undefined
 * when the request path would not reach that socket as it is written: `ws` parses the address as
 * one URL, so dot segments (plain or percent-encoded) would walk out of the socket path and a
 * colon would end it. The address is parsed here as `ws` parses it, and must come out unchanged.
 */
export function upstreamWebSocketAddress(socketPath: string, requestUrl: string): string | undefined {
  if (!requestUrl.startsWith('/') || requestUrl.includes(':') || requestUrl.includes('\\')) return undefined;
  const address = `ws+unix://${socketPath}:${requestUrl}`;
  let parsed: URL;
  try {
    parsed = new URL(address);
  } catch {
    return undefined;
  }
  const [parsedSocket, parsedPath, ...rest] = `${parsed.pathname}${parsed.search}`.split(':');
  if (parsedSocket !== socketPath || parsedPath !== requestUrl || rest.length > 0) return undefined;
  return address;
}
