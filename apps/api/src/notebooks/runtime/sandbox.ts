import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import type { RuntimeLimits } from './runtime-driver';

/** Where things appear inside the sandbox. */
export const SANDBOX_HOME = '/home/nb';
export const SANDBOX_RELEASED = '/home/nb/released';
export const SANDBOX_SOCKET_DIR = '/run/nb';
export const SANDBOX_SOCKET = '/run/nb/jupyter.sock';
/**
 * Jupyter's configuration directory: the platform's, bound read-only. Jupyter serves
 * `custom/custom.js` and `nbextensions` and reads its server configuration from here, so nothing
 * the notebook writes (its home is its own) becomes part of the notebook page or of the server.
 */
export const SANDBOX_CONFIG_DIR = '/run/hdp-jupyter';
export const SANDBOX_CONFIG_FILE = `${SANDBOX_CONFIG_DIR}/jupyter_notebook_config.json`;
/** Jupyter's data directory (kernel specs, nbextensions): empty and the platform's too. */
export const SANDBOX_DATA_DIR = `${SANDBOX_CONFIG_DIR}/data`;
/** Where bubblewrap finds its arguments and the seccomp filter: descriptors, not a command line. */
export const ARGS_FD = 3;
export const SECCOMP_FD = 4;

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
  /** /etc/passwd and /etc/group naming the notebook's user, read-only. */
  passwd: string;
  group: string;
}

/** The notebook's own host user and group (see notebook-identity.ts). */
export interface SandboxIdentity {
  uid: number;
  gid: number;
}

/**
 * How long Jupyter waits for a starting kernel to answer before it completes a kernel WebSocket's
 * handshake anyway (its `kernel_info_timeout`, 60 s by default, set here so the proxy can rely on it):
 * the proxy's own wait for the handshake (`NOTEBOOK_UPSTREAM_TIMEOUT_SECONDS`) must be longer, or a
 * kernel slow to start on a busy machine is cut off with 504 while Jupyter is still waiting for it.
 */
export const KERNEL_INFO_TIMEOUT_SECONDS = 60;
/** The proxy's default wait for a kernel WebSocket's handshake: Jupyter's own wait and a margin, so Jupyter answers first. */
export const DEFAULT_UPSTREAM_TIMEOUT_SECONDS = KERNEL_INFO_TIMEOUT_SECONDS + 5;

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
      // No template or static path but the platform's: nothing of the home is served as the page.
      extra_static_paths: [],
      extra_template_paths: [],
      nbserver_extensions: {},
    },
    KernelSpecManager: { allowed_kernelspecs: [options.kernel] },
    MappingKernelManager: { default_kernel_name: options.kernel, kernel_info_timeout: KERNEL_INFO_TIMEOUT_SECONDS },
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
 * unprivileged user could not reach (DATA_DIR stays 0700); inside, `setpriv` drops to the
 * notebook's own uid/gid with no capabilities, an empty bounding set and no_new_privs before Jupyter starts.
 *
 * Namespaces: mount (only what is listed here exists), pid (the notebook sees its own processes),
 * network (only `lo`: no route to the API, the database or the internet), ipc, uts, cgroup.
 * The environment is cleared: nothing of the API's (secrets included) reaches the notebook.
 *
 * Identity: each notebook runs as its own host user (`identity`), so nothing the kernel keeps per
 * user is shared. A seccomp filter (`--seccomp`, read from SECCOMP_FD) refuses user namespaces,
 * the keyring and kernel surface a notebook has no use for (seccomp-filter.py). The options go to
 * bubblewrap through a descriptor (`--args`), not its command line: the sandbox's pid 1 is
 * bubblewrap, and its command line would show the notebook host paths.
 */
export function sandboxArguments(
  mounts: SandboxMounts,
  options: { limits: RuntimeLimits; accelerator: boolean; identity: SandboxIdentity },
): { options: string[]; command: string[] } {
  const threads = String(Math.max(1, Math.ceil(options.limits.cpuLimit)));
  const env: Record<string, string> = {
    HOME: SANDBOX_HOME,
    USER: 'notebook',
    LOGNAME: 'notebook',
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    // Without it R asks timedatectl, which is not in the sandbox, and warns on every start.
    TZ: 'UTC',
    SHELL: '/bin/bash',
    JUPYTER_CONFIG_DIR: SANDBOX_CONFIG_DIR,
    JUPYTER_DATA_DIR: SANDBOX_DATA_DIR,
    JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime',
    IPYTHONDIR: `${SANDBOX_HOME}/.ipython`,
    MPLCONFIGDIR: `${SANDBOX_HOME}/.config/matplotlib`,
    // Numeric libraries size their thread pools to the host's cores otherwise, not to the limit.
    OMP_NUM_THREADS: threads,
    OPENBLAS_NUM_THREADS: threads,
    MKL_NUM_THREADS: threads,
  };
  const bwrapOptions = [
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
    '--ro-bind',
    mounts.passwd,
    '/etc/passwd',
    '--ro-bind',
    mounts.group,
    '/etc/group',
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
    '--seccomp',
    String(SECCOMP_FD),
    '--clearenv',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    '--chdir',
    SANDBOX_HOME,
  ];
  const command = [
    '/usr/bin/setpriv',
    '--reuid',
    String(options.identity.uid),
    '--regid',
    String(options.identity.gid),
    '--clear-groups',
    '--bounding-set',
    '-all',
    '--inh-caps',
    '-all',
    '--no-new-privs',
    '--',
    // Isolated mode: the server reads no user site-packages, .pth files or usercustomize from the
    // home (its kernels still do: they are the notebook's own code).
    '/usr/bin/python3',
    '-I',
    '-m',
    'notebook',
    `--config=${SANDBOX_CONFIG_FILE}`,
  ];
  return { options: bwrapOptions, command };
}

/**
 * The Python half of Jupyter's configuration (`jupyter_notebook_config.py` in the platform's
 * configuration directory, which Jupyter loads by itself): Jupyter's own contents manager, with a
 * full home (ENOSPC, EDQUOT) answered 507 with a sentence saying what happened and what to do,
 * in place of "Unexpected error while saving file".
 */
export const JUPYTER_PYTHON_CONFIG = `import errno
import os
from notebook.services.contents.largefilemanager import LargeFileManager
from tornado import web

FULL = (errno.ENOSPC, errno.EDQUOT)
MESSAGE = ("The notebook's home is full: it has reached its disk quota. "
           "Delete files you no longer need (and empty the trash), then save again.")


def is_full(error):
    # Jupyter's atomic writing restores the old file when the write fails; a failure to do that
    # (a new file has none) is what reaches us, with the full disk as its context.
    while error is not None:
        if isinstance(error, OSError) and error.errno in FULL:
            return True
        error = error.__cause__ or error.__context__
    return False


class QuotaAwareContentsManager(LargeFileManager):
    def _save_notebook(self, os_path, nb):
        try:
            return super()._save_notebook(os_path, nb)
        except OSError as error:
            if is_full(error):
                raise web.HTTPError(507, MESSAGE)
            raise

    def _save_file(self, os_path, content, format):
        try:
            return super()._save_file(os_path, content, format)
        except OSError as error:
            if is_full(error):
                raise web.HTTPError(507, MESSAGE)
            raise


c.NotebookApp.contents_manager_class = QuotaAwareContentsManager

# The notebooks' trust database and its secret are the notebook's own, in its home (Jupyter's
# data directory is the platform's). Made here, as the notebook's user, inside the sandbox.
TRUST = '${SANDBOX_HOME}/.local/share/jupyter'
try:
    os.makedirs(TRUST, mode=0o700, exist_ok=True)
except OSError:
    pass
c.NotebookNotary.data_dir = TRUST
`;
