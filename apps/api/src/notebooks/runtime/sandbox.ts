import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import type { RuntimeLimits } from './runtime-driver';

/** The unprivileged user and group the notebook's processes run as (Debian's nobody/nogroup). */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;

/** Where things appear inside the sandbox. */
export const SANDBOX_HOME = '/home/nb';
export const SANDBOX_RELEASED = '/home/nb/released';
export const SANDBOX_SOCKET_DIR = '/run/nb';
export const SANDBOX_SOCKET = '/run/nb/jupyter.sock';
export const SANDBOX_CONFIG_DIR = '/run/hdp-jupyter';
export const SANDBOX_CONFIG_FILE = `${SANDBOX_CONFIG_DIR}/jupyter_notebook_config.json`;

/** Host paths bound into one notebook's sandbox. */
export interface SandboxMounts {
  /** The notebook's own writable home (its files, kept across stop and start). */
  home: string;
  /** The workbench's released data, read-only. */
  released: string;
  /** Where Jupyter's Unix socket is created: the only way in. */
  socketDir: string;
  /** Jupyter's configuration for this run (holds the token), read-only. */
  configDir: string;
}

/** The Jupyter server's configuration: served on the socket only, with the given token and base URL. */
export function jupyterConfig(options: { token: string; basePath: string; kernel: string }): object {
  return {
    NotebookApp: {
      token: options.token,
      base_url: options.basePath,
      sock: SANDBOX_SOCKET,
      sock_mode: '0600',
      open_browser: false,
      notebook_dir: SANDBOX_HOME,
      // The platform stops notebooks; a quit button would look like a crash to it.
      quit_button: false,
    },
    KernelSpecManager: { allowed_kernelspecs: [options.kernel] },
    MappingKernelManager: { default_kernel_name: options.kernel },
  };
}

/** Top-level directories that are symlinks into /usr on a merged-/usr system are recreated as such. */
function systemDirectories(): string[] {
  const args: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const host = `/${name}`;
    if (!existsSync(host)) continue;
    if (lstatSync(host).isSymbolicLink()) args.push('--symlink', readlinkSync(host), host);
    else args.push('--ro-bind', host, host);
  }
  return args;
}

/** GPU device nodes, bound in only when the notebook asked for an accelerator. */
function acceleratorDevices(): string[] {
  if (!existsSync('/dev')) return [];
  return readdirSync('/dev')
    .filter((name) => /^nvidia(\d+|ctl|-uvm|-uvm-tools)$/.test(name))
    .flatMap((name) => ['--dev-bind', `/dev/${name}`, `/dev/${name}`]);
}

/**
 * The bubblewrap command line of one notebook. bwrap runs as root so that it can bind paths the
 * unprivileged user could not reach (DATA_DIR stays 0700); inside, `setpriv` drops to uid/gid
 * 65534 with no capabilities, an empty bounding set and no_new_privs before Jupyter starts.
 *
 * Namespaces: mount (only what is listed here exists), pid (the notebook sees its own processes),
 * network (only `lo`: no route to the API, the database or the internet), ipc, uts, cgroup.
 * The environment is cleared: nothing of the API's (secrets included) reaches the notebook.
 */
export function sandboxArguments(
  mounts: SandboxMounts,
  options: { limits: RuntimeLimits; accelerator: boolean; jupyterCommand: string },
): string[] {
  const threads = String(Math.max(1, Math.ceil(options.limits.cpuLimit)));
  const env: Record<string, string> = {
    HOME: SANDBOX_HOME,
    USER: 'nobody',
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    // Without it R asks timedatectl, which is not in the sandbox, and warns on every start.
    TZ: 'UTC',
    SHELL: '/bin/bash',
    JUPYTER_CONFIG_DIR: `${SANDBOX_HOME}/.jupyter`,
    JUPYTER_DATA_DIR: `${SANDBOX_HOME}/.local/share/jupyter`,
    JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime',
    IPYTHONDIR: `${SANDBOX_HOME}/.ipython`,
    MPLCONFIGDIR: `${SANDBOX_HOME}/.config/matplotlib`,
    // Numeric libraries size their thread pools to the host's cores otherwise, not to the limit.
    OMP_NUM_THREADS: threads,
    OPENBLAS_NUM_THREADS: threads,
    MKL_NUM_THREADS: threads,
  };
  return [
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'notebook',
    ...systemDirectories(),
    '--ro-bind',
    '/etc',
    '/etc',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...(options.accelerator ? acceleratorDevices() : []),
    // bwrap makes a tmpfs owned by root: the unprivileged user needs the usual sticky, writable /tmp.
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
    '--perms',
    '1777',
    '--tmpfs',
    '/var/tmp',
    '--tmpfs',
    '/home',
    '--bind',
    mounts.home,
    SANDBOX_HOME,
    '--ro-bind',
    mounts.released,
    SANDBOX_RELEASED,
    '--tmpfs',
    '/run',
    '--bind',
    mounts.socketDir,
    SANDBOX_SOCKET_DIR,
    '--ro-bind',
    mounts.configDir,
    SANDBOX_CONFIG_DIR,
    '--clearenv',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    '--chdir',
    SANDBOX_HOME,
    '--',
    '/usr/bin/setpriv',
    '--reuid',
    String(SANDBOX_UID),
    '--regid',
    String(SANDBOX_GID),
    '--clear-groups',
    '--bounding-set',
    '-all',
    '--inh-caps',
    '-all',
    '--no-new-privs',
    '--',
    options.jupyterCommand,
    `--config=${SANDBOX_CONFIG_FILE}`,
  ];
}
