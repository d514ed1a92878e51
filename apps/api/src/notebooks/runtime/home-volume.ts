import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/**
 * A notebook's home as a file system of its own: an ext4 image (`home.img`, sparse, so it takes
 * only what is written) loop-mounted on the home directory while the notebook runs. Its size is
 * the notebook's disk quota: a write past it fails with ENOSPC inside the notebook, and the file
 * system that holds the database, the audit log and the other homes cannot be filled from it.
 *
 * Chosen over a project quota (which needs the data file system mounted with `prjquota`, which
 * an operator rarely has) and over a size check (which can only notice after the disk is full).
 * The image is mounted nosuid and nodev; its root belongs to the notebook's user.
 */
export class HomeVolumes {
  constructor(private readonly quotaMb: number) {}

  describe(): string {
    return `an ext4 image of ${this.quotaMb} MiB per notebook home, loop-mounted while it runs`;
  }

  /**
   * Makes the image if there is none (a home from before quotas is copied into it, its files
   * given to `uid`), grows it when the quota was raised, and mounts it on `home`.
   */
  async mount(root: string, uid: number, gid: number): Promise<void> {
    const home = path.join(root, 'home');
    const image = path.join(root, 'home.img');
    await mkdir(home, { recursive: true, mode: 0o700 });
    if (await isMountPoint(home)) await this.unmount(root);
    if (!existsSync(image)) await this.make(root, uid, gid);
    const size = (await stat(image)).size;
    const wanted = this.quotaMb * 1024 * 1024;
    if (size < wanted) {
      await truncate(image, wanted);
      // Offline growth needs a checked file system; a quick forced check of a stopped home.
      await run('e2fsck', ['-fp', image], { env: ENV }).catch(() => undefined);
      await run('resize2fs', [image], { env: ENV });
    }
    await run('mount', ['-t', 'ext4', '-o', 'loop,nosuid,nodev,noatime', image, home], { env: ENV });
    await chmod(home, 0o700);
    // mkfs's lost+found (root's, 0700) would sit in every home's listing; fsck makes it if needed.
    // rmdir removes an empty directory only, and never follows a link.
    await rmdir(path.join(home, 'lost+found')).catch(() => undefined);
  }

  /** Unmounts the home (lazily if the API still reads a file of it); a home not mounted is left. */
  async unmount(root: string): Promise<void> {
    const home = path.join(root, 'home');
    if (!(await isMountPoint(home))) return;
    try {
      await run('umount', [home], { env: ENV });
    } catch {
      await run('umount', ['-l', home], { env: ENV });
    }
  }

  private async make(root: string, uid: number, gid: number): Promise<void> {
    const home = path.join(root, 'home');
    const image = path.join(root, 'home.img');
    const partial = `${image}.partial`;
    await rm(partial, { force: true });
    await writeFile(partial, '', { mode: 0o600 });
    await truncate(partial, this.quotaMb * 1024 * 1024);
    // No blocks reserved for root (nothing runs as root in it); the root directory the notebook's.
    // A small journal: mkfs writes it whole, and a 10 GiB home would otherwise get 64 MiB of it.
    const journalMb = Math.max(4, Math.min(32, Math.floor(this.quotaMb / 8)));
    await run(
      'mkfs.ext4',
      ['-q', '-F', '-m', '0', '-J', `size=${journalMb}`, '-L', 'notebook-home', '-E', `root_owner=${uid}:${gid},lazy_itable_init=1`, partial],
      { env: ENV },
    );
    if ((await readdir(home)).length > 0) await this.copyLegacyHome(home, partial, uid, gid);
    await rename(partial, image);
  }

  /** A home kept as a plain directory before quotas: its files move into the image. */
  private async copyLegacyHome(home: string, image: string, uid: number, gid: number): Promise<void> {
    const target = await mkdtemp(path.join(path.dirname(home), '.home-copy-'));
    await run('mount', ['-t', 'ext4', '-o', 'loop,nosuid,nodev', image, target], { env: ENV });
    try {
      await run('cp', ['-a', '--', `${home}/.`, target], { env: ENV });
      // -h: a symbolic link's own owner changes, never what it points to.
      await run('chown', ['-R', '-h', '-P', `${uid}:${gid}`, target], { env: ENV });
    } finally {
      await run('umount', [target], { env: ENV });
      await rmdir(target);
    }
    for (const entry of await readdir(home)) await rm(path.join(home, entry), { recursive: true, force: true });
  }
}

/** Whether `dir` is a mount point in this process's mount table. */
async function isMountPoint(dir: string): Promise<boolean> {
  const table = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const escaped = dir.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return table.split('\n').some((line) => line.split(' ')[4] === escaped);
}
