import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, open, readdir, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { checkHost, installHint, LOCAL_ENVIRONMENTS, type HostCheck } from './local-environments';
import { jupyterActivity, jupyterRequest } from './jupyter-client';
import { ResourceLimiter } from './resource-limits';
import { HomeVolumes } from './home-volume';
import { NotebookIdentities, type NotebookIdentity } from './notebook-identity';
import { NotebookSockets } from './notebook-socket';
import { ARGS_FD, JUPYTER_PYTHON_CONFIG, jupyterConfig, sandboxArguments } from './sandbox';
import { writeSeccompFilter } from './seccomp';
import {
  RuntimeRequestError,
  RuntimeStartError,
  RuntimeUnavailableError,
  type NotebookActivity,
  type NotebookRef,
  type NotebookRuntimeDriver,
  type NotebookRuntimeSpec,
  type NotebookUpstream,
  type ReconcileOutcome,
  type RuntimeAvailability,
  type RuntimeExitListener,
  type RuntimeStatus,
} from './runtime-driver';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
const READY_POLL_MS = 20;
const LOG_TAIL_BYTES = 2000;

export interface LocalDriverOptions {
  /** DATA_DIR/workbenches: notebooks live under `<workbenchId>/notebooks/<notebookId>/`. */
  workbenchesDir: string;
  /** Public path prefix of a notebook (the proxy's and Jupyter's base URL). */
  basePath: (notebookId: string) => string;
  /** Sockets live here (short paths: a Unix socket path is limited to 107 bytes). */
  socketRoot?: string;
  /** Where the notebooks' user ids are claimed; by default `notebook-uids` beside workbenchesDir. */
  identityRegistry?: string;
  /** The disk quota of each notebook's home, in MiB. */
  homeQuotaMb?: number;
  startTimeoutMs?: number;
  /**
   * How long Jupyter gets to shut its kernels down before the sandbox is killed. Short: the
   * notebook's files are safe either way (Jupyter saves by writing a temporary file and renaming it).
   */
  stopGraceMs?: number;
  limiter?: ResourceLimiter;
  /** What is installed on the host; looked up at construction unless given. */
  hostCheck?: HostCheck;
  logger?: FastifyBaseLogger;
}

/** What a running notebook's state file records, so that a restarted API can find its processes. */
interface StateFile {
  pid: number;
  /** The process's start time (clock ticks after boot): a pid used again is not taken for it. */
  startTicks?: number;
  ownerPid: number;
  startedAt: string;
}

interface Running {
  ref: NotebookRef;
  identity: NotebookIdentity;
  child: ChildProcess;
  upstream: NotebookUpstream;
  stopping: boolean;
  exited: Promise<void>;
  /** Settles once the exit is handled: state file, socket and control groups removed. */
  done: Promise<void>;
}

/**
 * The embedded runtime: one Jupyter server (classic notebook, Debian's packages) per notebook,
 * in a bubblewrap sandbox, limited by control groups, reachable only through its Unix socket.
 */
export class LocalNotebookDriver implements NotebookRuntimeDriver {
  readonly kind = 'local';
  private readonly running = new Map<string, Running>();
  private readonly starting = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, string>();
  private readonly exitListeners: RuntimeExitListener[] = [];
  private readonly limiter: ResourceLimiter;
  private readonly socketRoot: string;
  private readonly sockets: NotebookSockets;
  private readonly identities: NotebookIdentities;
  private readonly volumes: HomeVolumes;
  private readonly hostCheck: HostCheck;
  private seccompFilter?: Promise<string>;

  constructor(private readonly options: LocalDriverOptions) {
    this.limiter = options.limiter ?? new ResourceLimiter();
    this.hostCheck = options.hostCheck ?? checkHost();
    this.socketRoot = options.socketRoot ?? path.join(os.tmpdir(), 'hdp-notebooks');
    this.sockets = new NotebookSockets(this.socketRoot);
    this.identities = new NotebookIdentities(options.identityRegistry ?? path.join(path.dirname(options.workbenchesDir), 'notebook-uids'));
    this.volumes = new HomeVolumes(options.homeQuotaMb ?? DEFAULT_HOME_QUOTA_MB);
  }

  availability(): RuntimeAvailability {
    const { missingBase, missingByEnvironment, isRoot } = this.hostCheck;
    const environments: RuntimeAvailability['environments'] = {};
    for (const [id, missing] of Object.entries(missingByEnvironment)) {
      const packages = [...missingBase, ...missing];
      environments[id] = packages.length
        ? { available: false, detail: `The ${id} environment is not installed on the API's host: ${installHint(packages)}.` }
        : { available: true };
    }
    let detail: string | undefined;
    if (missingBase.length) {
      detail = `Notebooks are not available: the API's host lacks Jupyter or the sandbox. Install them with: ${installHint([
        ...missingBase,
        ...Object.values(missingByEnvironment).flat(),
      ])}.`;
    } else if (!isRoot) {
      detail =
        'Notebooks are not available: the local notebook runtime must run as root, to start each sandbox and drop it to an unprivileged user.';
    }
    return {
      available: !detail,
      detail,
      environments: detail ? {} : environments,
      enforcement: { ...this.limiter.describe(), disk: this.volumes.describe() },
    };
  }

  async create(spec: NotebookRuntimeSpec): Promise<void> {
    this.validate(spec);
    const dirs = this.paths(spec);
    // The mount point of the home's volume: root's, so that nothing can be written to it unmounted.
    await mkdir(dirs.home, { recursive: true, mode: 0o700 });
    await this.start(spec);
  }

  async start(spec: NotebookRuntimeSpec): Promise<void> {
    this.validate(spec);
    if (this.running.has(spec.notebookId)) return;
    const pending = this.starting.get(spec.notebookId);
    if (pending) return pending;
    const launch = this.launch(spec).finally(() => this.starting.delete(spec.notebookId));
    this.starting.set(spec.notebookId, launch);
    return launch;
  }

  async stop(ref: NotebookRef): Promise<void> {
    await this.starting.get(ref.notebookId)?.catch(() => undefined);
    const running = this.running.get(ref.notebookId);
    if (!running) return;
    running.stopping = true;
    const grace = this.options.stopGraceMs ?? 300;
    // Jupyter's own shutdown stops its kernels; the sandbox then ends with it.
    await jupyterRequest(running.upstream, 'POST', 'api/shutdown', { timeoutMs: grace }).catch(() => undefined);
    const ended = await Promise.race([running.exited.then(() => true), delay(grace).then(() => false)]);
    if (!ended) {
      // Killing bwrap kills everything in the sandbox (--die-with-parent on its pid namespace).
      running.child.kill('SIGKILL');
      await this.killGroup(ref.notebookId);
    }
    await running.done;
  }

  async delete(ref: NotebookRef): Promise<void> {
    this.assertIds(ref);
    await this.stop(ref);
    this.failures.delete(ref.notebookId);
    const dirs = this.paths(ref);
    await this.volumes.unmount(dirs.root);
    await this.identities.release(dirs.identityFile);
    await rm(dirs.root, { recursive: true, force: true });
  }

  async status(ref: NotebookRef): Promise<RuntimeStatus> {
    this.assertIds(ref);
    if (this.running.has(ref.notebookId)) return { state: 'RUNNING' };
    const failure = this.failures.get(ref.notebookId);
    if (failure) return { state: 'FAILED', reason: failure };
    if (!existsSync(this.paths(ref).home)) return { state: 'FAILED', reason: "The notebook's files are missing." };
    return { state: 'STOPPED' };
  }

  runningNotebooks(): NotebookRef[] {
    return [...this.running.values()].map((r) => r.ref);
  }

  async reconcile(): Promise<ReconcileOutcome[]> {
    const outcomes: ReconcileOutcome[] = [];
    // Empty groups whose removal was cut short (the process stopped first).
    await this.limiter.sweep(new Set([...this.running.keys(), ...this.starting.keys()]));
    const workbenchesDir = this.options.workbenchesDir;
    const workbenchIds = await readdir(workbenchesDir).catch(() => [] as string[]);
    for (const workbenchId of workbenchIds) {
      const notebookIds = await readdir(path.join(workbenchesDir, workbenchId, 'notebooks')).catch(() => [] as string[]);
      for (const notebookId of notebookIds) {
        const ref = { workbenchId, notebookId };
        if (!SAFE_ID.test(workbenchId) || !SAFE_ID.test(notebookId) || this.running.has(notebookId)) continue;
        const stateFile = this.paths(ref).stateFile;
        const state = await readFile(stateFile, 'utf8')
          .then((text) => JSON.parse(text) as StateFile)
          .catch(() => undefined);
        if (!state) continue;
        // Another live API process on this host started it: not an orphan.
        if (state.ownerPid !== process.pid && commandLine(state.ownerPid).includes('node')) continue;
        const alive = state.startTicks !== undefined ? processStartTicks(state.pid) === state.startTicks : commandLine(state.pid).includes(notebookId);
        if (alive) {
          process.kill(state.pid, 'SIGKILL');
          await this.killGroup(notebookId);
        }
        await this.cleanUp(ref);
        outcomes.push({
          ...ref,
          outcome: alive ? 'orphan-stopped' : 'gone',
          reason: alive
            ? 'The API restarted while the notebook ran; its server was stopped. Its files are kept.'
            : 'The notebook server ended while the API was not running. Its files are kept.',
        });
      }
    }
    return outcomes;
  }

  /**
   * How the proxy reaches a running notebook. The socket path is checked on every call (see
   * NotebookSockets.verified): a socket of the notebook's own user, in a directory only the
   * platform can write, never a path the notebook controls. Anything else: as if not running.
   */
  upstream(notebookId: string): NotebookUpstream | undefined {
    const running = this.running.get(notebookId);
    if (!running) return undefined;
    if (!this.sockets.verified(notebookId, running.identity.uid)) {
      this.options.logger?.warn({ notebookId }, "the notebook's socket is not the one its server made: refused");
      return undefined;
    }
    return running.upstream;
  }

  /** The verified socket path of a running notebook (see `upstream`), or undefined. */
  socketPath(notebookId: string): string | undefined {
    return this.upstream(notebookId)?.socketPath;
  }

  async activity(notebookId: string): Promise<NotebookActivity | undefined> {
    const running = this.running.get(notebookId);
    return running ? jupyterActivity(running.upstream) : undefined;
  }

  onUnexpectedExit(listener: RuntimeExitListener): void {
    this.exitListeners.push(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => this.stop(r.ref)));
  }

  validate(spec: NotebookRuntimeSpec): void {
    this.assertIds(spec);
    const availability = this.availability();
    if (!availability.available) throw new RuntimeUnavailableError(availability.detail!);
    const environment = availability.environments[spec.environment];
    if (!environment) throw new RuntimeRequestError(`environment: unknown environment ${spec.environment}.`);
    if (!environment.available) throw new RuntimeUnavailableError(environment.detail!);
    if (spec.accelerator && spec.accelerator.count > 0) {
      const gpus = hostGpuCount();
      if (gpus < spec.accelerator.count) {
        throw new RuntimeRequestError(
          `accelerator: this deployment's notebook runtime cannot provide ${spec.accelerator.count} × ${spec.accelerator.type}: ` +
            `its host has ${gpus === 0 ? 'no GPU' : `only ${gpus} GPU${gpus === 1 ? '' : 's'}`}. Create the notebook without an accelerator.`,
        );
      }
    }
  }

  private assertIds(ref: NotebookRef): void {
    if (!SAFE_ID.test(ref.notebookId) || !SAFE_ID.test(ref.workbenchId)) throw new RuntimeRequestError('Invalid notebook or workbench id.');
  }

  private paths(ref: NotebookRef) {
    const workbench = path.join(this.options.workbenchesDir, ref.workbenchId);
    const root = path.join(workbench, 'notebooks', ref.notebookId);
    const runtime = path.join(root, 'runtime');
    return {
      released: path.join(workbench, 'released'),
      root,
      home: path.join(root, 'home'),
      runtime,
      configDir: path.join(runtime, 'jupyter'),
      stateFile: path.join(runtime, 'state.json'),
      logFile: path.join(runtime, 'jupyter.log'),
      argsFile: path.join(runtime, 'bwrap.args'),
      passwd: path.join(runtime, 'passwd'),
      group: path.join(runtime, 'group'),
      identityFile: path.join(root, 'identity.json'),
    };
  }

  private async launch(spec: NotebookRuntimeSpec): Promise<void> {
    const dirs = this.paths(spec);
    const environment = LOCAL_ENVIRONMENTS[spec.environment]!;
    const token = randomBytes(32).toString('hex');
    const basePath = this.options.basePath(spec.notebookId);
    this.failures.delete(spec.notebookId);

    if (!existsSync(dirs.home)) throw new RuntimeStartError("The notebook's files are missing.");
    const identity = await this.identities.of(spec.notebookId, dirs.identityFile);
    await mkdir(dirs.runtime, { recursive: true, mode: 0o700 });
    await this.writeJupyterConfig(dirs.configDir, identity, { token, basePath, kernel: environment.kernel });
    await writeIdentityFiles(dirs.passwd, dirs.group, identity);
    const seccompFilter = await this.seccomp();
    await this.volumes.mount(dirs.root, identity.uid, identity.gid).catch((error: unknown) => {
      throw new RuntimeStartError(`The notebook's home could not be mounted: ${(error as Error).message}`);
    });
    await this.sockets.prepare(spec.notebookId, identity.uid, identity.gid);
    await mkdir(dirs.released, { recursive: true, mode: 0o755 });
    await makeReadable(dirs.released);

    const plan = await this.limiter.apply(spec.notebookId, spec.limits);
    const sandbox = sandboxArguments(
      {
        home: dirs.home,
        released: dirs.released,
        socketDir: this.sockets.sandboxDir(spec.notebookId),
        configDir: dirs.configDir,
        passwd: dirs.passwd,
        group: dirs.group,
      },
      { limits: spec.limits, accelerator: Boolean(spec.accelerator?.count), identity },
    );
    await writeFile(dirs.argsFile, sandbox.options.map((arg) => `${arg}\0`).join(''), { mode: 0o600 });
    const bwrap = ['/usr/bin/bwrap', '--args', String(ARGS_FD), '--', ...sandbox.command];
    const command = plan.prlimitArgs.length ? ['/usr/bin/prlimit', ...plan.prlimitArgs, '--', ...bwrap] : bwrap;
    const handles: FileHandle[] = [];
    let child: ChildProcess;
    try {
      const log = await open(dirs.logFile, 'w', 0o600);
      handles.push(log);
      const args = await open(dirs.argsFile, 'r');
      handles.push(args);
      const filter = await open(seccompFilter, 'r');
      handles.push(filter);
      // The launcher joins the notebook's control groups before it becomes the sandbox, so that
      // every process of the notebook is limited from its first instruction. bwrap reads its
      // options and the filter from descriptors 3 and 4, and closes them.
      child = spawn('/bin/sh', ['-c', 'for f in $HDP_CGROUP_PROCS; do echo $$ > "$f" || exit 97; done; exec "$@"', 'hdp-notebook', ...command], {
        env: { PATH: '/usr/bin:/bin', HDP_CGROUP_PROCS: plan.cgroupProcs.join(' ') },
        stdio: ['ignore', log.fd, log.fd, args.fd, filter.fd],
      });
    } finally {
      for (const handle of handles) await handle.close();
    }
    const upstream: NotebookUpstream = { socketPath: this.sockets.socketPath(spec.notebookId), token, basePath, homeDir: dirs.home };
    let exitDescription = '';
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        exitDescription = signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve();
      });
      child.once('error', (error) => {
        exitDescription = error.message;
        resolve();
      });
    });
    const running: Running = {
      ref: { notebookId: spec.notebookId, workbenchId: spec.workbenchId },
      identity,
      child,
      upstream,
      stopping: false,
      exited,
      done: Promise.resolve(),
    };
    running.done = exited.then(() => this.onExit(running, () => exitDescription));
    const state: StateFile = {
      pid: child.pid ?? -1,
      startTicks: processStartTicks(child.pid ?? -1),
      ownerPid: process.pid,
      startedAt: new Date().toISOString(),
    };
    await writeFile(dirs.stateFile, JSON.stringify(state), { mode: 0o600 });

    const deadline = Date.now() + (this.options.startTimeoutMs ?? 30_000);
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));
    let refusal: string | undefined;
    while (!exitedEarly) {
      // Only once Jupyter's socket is the platform's own link is anything sent to it.
      const adopted = await this.sockets.adopt(spec.notebookId, identity.uid).catch((error: unknown) => {
        refusal = (error as Error).message;
        return false;
      });
      if (refusal) break;
      const answer = adopted ? await jupyterRequest(upstream, 'GET', 'api/status', { timeoutMs: 1000 }).catch(() => undefined) : undefined;
      if (answer?.status === 200) {
        this.running.set(spec.notebookId, running);
        this.options.logger?.info({ notebookId: spec.notebookId, pid: child.pid }, 'notebook server started');
        return;
      }
      if (Date.now() > deadline) break;
      await delay(READY_POLL_MS);
    }
    running.stopping = true;
    child.kill('SIGKILL');
    await running.done;
    const reason = refusal
      ? refusal
      : exitedEarly
      ? `The notebook server ended as it started (${exitDescription}): ${await logTail(dirs.logFile)}`
      : `The notebook server did not answer within ${Math.round((this.options.startTimeoutMs ?? 30_000) / 1000)} s: ${await logTail(dirs.logFile)}`;
    this.failures.set(spec.notebookId, reason);
    throw new RuntimeStartError(reason);
  }

  private async onExit(running: Running, description: () => string): Promise<void> {
    const { ref } = running;
    const wasRunning = this.running.get(ref.notebookId) === running;
    if (wasRunning) this.running.delete(ref.notebookId);
    await this.killGroup(ref.notebookId);
    await this.cleanUp(ref);
    if (wasRunning && !running.stopping) {
      const reason = `The notebook server ended unexpectedly (${description()}): ${await logTail(this.paths(ref).logFile)}`;
      this.failures.set(ref.notebookId, reason);
      this.options.logger?.warn({ notebookId: ref.notebookId, reason }, 'notebook server ended unexpectedly');
      for (const listener of this.exitListeners) listener(ref, { state: 'FAILED', reason });
    }
  }

  /** Kills what is left in the notebook's control group (processes that escaped the sandbox's end). */
  private async killGroup(notebookId: string): Promise<void> {
    for (const pid of await this.limiter.pids(notebookId)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  private async cleanUp(ref: NotebookRef): Promise<void> {
    const dirs = this.paths(ref);
    await rm(dirs.stateFile, { force: true });
    await this.sockets.remove(ref.notebookId);
    // The group can be removed only once the kernel has reaped its last task.
    for (let attempt = 0; attempt < 20 && (await this.limiter.pids(ref.notebookId)).length > 0; attempt++) await delay(25);
    await this.limiter.release(ref.notebookId);
    await this.volumes.unmount(dirs.root).catch((error: unknown) => {
      this.options.logger?.warn({ err: error, notebookId: ref.notebookId }, "the notebook's home could not be unmounted");
    });
  }

  /** The sandbox's seccomp filter, made once per driver. */
  private seccomp(): Promise<string> {
    this.seccompFilter ??= (async () => {
      await mkdir(this.socketRoot, { recursive: true, mode: 0o711 });
      return writeSeccompFilter(this.socketRoot);
    })();
    this.seccompFilter.catch(() => (this.seccompFilter = undefined));
    return this.seccompFilter.catch((error: unknown) => {
      throw new RuntimeStartError(`The sandbox's seccomp filter could not be made: ${(error as Error).message}`);
    });
  }

  /**
   * Jupyter's configuration directory for this run: the platform's, bound read-only. Only the
   * token's file is readable by the notebook's user; no `custom/` and an empty data directory, so
   * that Jupyter's own static custom.js (empty) is what the page loads.
   */
  private async writeJupyterConfig(dir: string, identity: NotebookIdentity, options: Parameters<typeof jupyterConfig>[0]): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.join(dir, 'data'), { recursive: true, mode: 0o755 });
    await chmod(dir, 0o755);
    const configFile = path.join(dir, 'jupyter_notebook_config.json');
    await writeFile(configFile, JSON.stringify(jupyterConfig(options)), { mode: 0o400 });
    await chown(configFile, identity.uid, identity.gid);
    await writeFile(path.join(dir, 'jupyter_notebook_config.py'), JUPYTER_PYTHON_CONFIG, { mode: 0o444 });
    // Jupyter otherwise tries, once per home, to copy IPython's old configuration into this directory.
    await writeFile(path.join(dir, 'migrated'), new Date().toISOString(), { mode: 0o444 });
  }
}

/** The home's disk quota when the deployment sets none. */
export const DEFAULT_HOME_QUOTA_MB = 10_240;

/**
 * The sandbox's /etc/passwd and /etc/group: the host's, with the notebook's user and group added,
 * so that programs asking who they are (R, bash, getpass) get a name and the home.
 */
async function writeIdentityFiles(passwd: string, group: string, identity: NotebookIdentity): Promise<void> {
  const hostPasswd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  const hostGroup = await readFile('/etc/group', 'utf8').catch(() => '');
  const line = (text: string) => (text.endsWith('\n') || text === '' ? text : `${text}\n`);
  await writeFile(passwd, `${line(hostPasswd)}notebook:x:${identity.uid}:${identity.gid}:Notebook:/home/nb:/bin/bash\n`, { mode: 0o644 });
  await writeFile(group, `${line(hostGroup)}notebook:x:${identity.gid}:\n`, { mode: 0o644 });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A process's command line, or '' when there is no such process. */
function commandLine(pid: number): string {
  if (!Number.isInteger(pid) || pid <= 0) return '';
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** A process's start time in clock ticks after boot (/proc/<pid>/stat, field 22), or undefined. */
function processStartTicks(pid: number): number | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch {
    return undefined;
  }
}

function hostGpuCount(): number {
  return existsSync('/dev') ? readdirSync('/dev').filter((name) => /^nvidia\d+$/.test(name)).length : 0;
}

/** The last lines Jupyter wrote, for a FAILED notebook's reason. */
async function logTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const tail = text.slice(-LOG_TAIL_BYTES).trim().split('\n').slice(-5).join(' | ');
  return tail || 'no output';
}

/**
 * The sandbox reads released files as an unprivileged user: directories must be searchable and
 * files readable by others. Files written by the platform with a stricter umask are opened up here.
 */
async function makeReadable(dir: string): Promise<void> {
  const info = await stat(dir);
  if ((info.mode & 0o005) !== 0o005) await chmod(dir, info.mode | 0o005);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await makeReadable(full);
    else if (entry.isFile()) {
      const mode = (await stat(full)).mode;
      if ((mode & 0o004) === 0) await chmod(full, mode | 0o004);
    }
  }
}
