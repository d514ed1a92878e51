import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeLimits } from './runtime-driver';

const CFS_PERIOD_US = 100_000;
const V1_CONTROLLERS = ['memory', 'cpu', 'pids'] as const;

/** How a notebook's limits are put in place before its sandbox starts. */
export interface LimitPlan {
  /** `cgroup.procs` files the launcher writes its own pid to before it executes the sandbox. */
  cgroupProcs: string[];
  /** `prlimit` options applied to the sandbox when there is no writable cgroup hierarchy. */
  prlimitArgs: string[];
}

type Mode = 'cgroup-v1' | 'cgroup-v2' | 'rlimit';

/**
 * Memory, CPU and process limits per notebook. Control groups when the API may create them
 * (root on a host with a writable hierarchy: the limits then cover the notebook's processes
 * together, and the kernel's OOM killer stays inside the group); otherwise rlimits per process
 * (address space and process count; CPU is then not limited), which is weaker and documented so.
 */
export class ResourceLimiter {
  readonly mode: Mode;

  constructor(
    private readonly root = '/sys/fs/cgroup',
    private readonly group = 'hdp-notebooks',
  ) {
    this.mode = this.detect();
  }

  /** A sentence per limit saying how it is enforced here. */
  describe(): { memory: string; cpu: string; processes: string } {
    switch (this.mode) {
      case 'cgroup-v1':
        return {
          memory: 'cgroup v1 memory.limit_in_bytes (the OOM killer acts inside the notebook)',
          cpu: 'cgroup v1 CFS quota (cpu.cfs_quota_us per 100 ms period)',
          processes: 'cgroup v1 pids.max (processes and threads)',
        };
      case 'cgroup-v2':
        return { memory: 'cgroup v2 memory.max', cpu: 'cgroup v2 cpu.max', processes: 'cgroup v2 pids.max' };
      default:
        return {
          memory: 'RLIMIT_AS per process (no control group available)',
          cpu: 'not enforced (no control group available)',
          processes: 'RLIMIT_NPROC (counted per user namespace)',
        };
    }
  }

  /** Creates the notebook's group with its limits; the launcher joins it. */
  async apply(notebookId: string, limits: RuntimeLimits): Promise<LimitPlan> {
    const memoryBytes = String(limits.memoryLimitMb * 1024 * 1024);
    const quota = Math.max(1000, Math.round(limits.cpuLimit * CFS_PERIOD_US));
    if (this.mode === 'cgroup-v1') {
      const dirs = V1_CONTROLLERS.map((c) => this.v1Dir(c, notebookId));
      for (const dir of dirs) mkdirSync(dir, { recursive: true });
      const [memory, cpu, pids] = dirs as [string, string, string];
      await writeFile(path.join(memory, 'memory.limit_in_bytes'), memoryBytes);
      await writeFile(path.join(cpu, 'cpu.cfs_period_us'), String(CFS_PERIOD_US));
      await writeFile(path.join(cpu, 'cpu.cfs_quota_us'), String(quota));
      await writeFile(path.join(pids, 'pids.max'), String(limits.maxProcesses));
      return { cgroupProcs: dirs.map((d) => path.join(d, 'cgroup.procs')), prlimitArgs: [] };
    }
    if (this.mode === 'cgroup-v2') {
      const dir = path.join(this.root, this.group, notebookId);
      mkdirSync(dir, { recursive: true });
      await writeFile(path.join(dir, 'memory.max'), memoryBytes);
      await writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      await writeFile(path.join(dir, 'cpu.max'), `${quota} ${CFS_PERIOD_US}`);
      await writeFile(path.join(dir, 'pids.max'), String(limits.maxProcesses));
      return { cgroupProcs: [path.join(dir, 'cgroup.procs')], prlimitArgs: [] };
    }
    return { cgroupProcs: [], prlimitArgs: [`--as=${memoryBytes}`, `--nproc=${limits.maxProcesses}`] };
  }

  /** Processes still in the notebook's group (an orphan's, after the API died). */
  async pids(notebookId: string): Promise<number[]> {
    const procs =
      this.mode === 'cgroup-v1'
        ? path.join(this.v1Dir('pids', notebookId), 'cgroup.procs')
        : this.mode === 'cgroup-v2'
          ? path.join(this.root, this.group, notebookId, 'cgroup.procs')
          : undefined;
    if (!procs) return [];
    const text = await readFile(procs, 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map(Number);
  }

  /**
   * Removes the notebook's group once its processes have ended. The kernel refuses (EBUSY) while
   * it still reaps the last tasks, which takes a moment on a loaded host: it is tried again.
   */
  async release(notebookId: string): Promise<void> {
    const dirs =
      this.mode === 'cgroup-v1'
        ? V1_CONTROLLERS.map((c) => this.v1Dir(c, notebookId))
        : this.mode === 'cgroup-v2'
          ? [path.join(this.root, this.group, notebookId)]
          : [];
    await Promise.all(dirs.map((dir) => removeGroup(dir)));
  }

  /**
   * Removes empty groups of notebooks not in `running`, left by a process that stopped before
   * removing them. Only groups older than a minute: a younger one may belong to a notebook another
   * API process on this host is launching right now.
   */
  async sweep(running: ReadonlySet<string>): Promise<void> {
    const parent = this.mode === 'cgroup-v1' ? path.join(this.root, 'pids', this.group) : this.mode === 'cgroup-v2' ? path.join(this.root, this.group) : undefined;
    if (!parent) return;
    const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || running.has(entry.name)) continue;
      const age = Date.now() - (await stat(path.join(parent, entry.name))).mtimeMs;
      if (age > 60_000 && (await this.pids(entry.name)).length === 0) await this.release(entry.name);
    }
  }

  private v1Dir(controller: string, notebookId: string): string {
    return path.join(this.root, controller, this.group, notebookId);
  }

  private detect(): Mode {
    if (process.getuid?.() !== 0) return 'rlimit';
    try {
      if (existsSync(path.join(this.root, 'cgroup.controllers'))) {
        const available = readFileSync(path.join(this.root, 'cgroup.controllers'), 'utf8');
        if (!['memory', 'cpu', 'pids'].every((c) => available.includes(c))) return 'rlimit';
        const parent = path.join(this.root, this.group);
        mkdirSync(parent, { recursive: true });
        // Children of the notebooks' parent group get the three controllers.
        const subtree = path.join(parent, 'cgroup.subtree_control');
        writeFileSync(subtree, '+memory +cpu +pids');
        return 'cgroup-v2';
      }
      for (const controller of V1_CONTROLLERS) mkdirSync(path.join(this.root, controller, this.group), { recursive: true });
      return 'cgroup-v1';
    } catch {
      return 'rlimit';
    }
  }
}

async function removeGroup(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code !== 'EBUSY') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
