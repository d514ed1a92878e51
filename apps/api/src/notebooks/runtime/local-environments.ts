import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** How the local driver runs one catalogue environment: a Jupyter kernel from Debian's packages. */
export interface LocalEnvironment {
  /** The kernelspec name under /usr/share/jupyter/kernels. */
  kernel: string;
  /** Files whose presence says the environment's packages are installed. */
  requiredPaths: string[];
  /** The Debian packages that provide it. */
  debianPackages: string[];
}

/** The catalogue's environments as this host runs them. */
export const LOCAL_ENVIRONMENTS: Readonly<Record<string, LocalEnvironment>> = {
  'python3-datascience': {
    kernel: 'python3',
    requiredPaths: [
      '/usr/share/jupyter/kernels/python3/kernel.json',
      '/usr/lib/python3/dist-packages/ipykernel',
      '/usr/lib/python3/dist-packages/pandas',
      '/usr/lib/python3/dist-packages/sklearn',
      '/usr/lib/python3/dist-packages/matplotlib',
    ],
    debianPackages: ['python3-ipykernel', 'python3-pandas', 'python3-sklearn', 'python3-matplotlib'],
  },
  'r-tidyverse': {
    kernel: 'ir',
    requiredPaths: ['/usr/bin/R', '/usr/share/jupyter/kernels/ir/kernel.json', '/usr/lib/R/site-library/tidyverse'],
    debianPackages: ['r-base-core', 'r-cran-irkernel', 'r-cran-tidyverse'],
  },
};

/** The programs every environment needs: Jupyter's server, the sandbox and the privilege drop. */
const BASE_REQUIREMENTS: { path: string; debianPackage: string }[] = [
  { path: '/usr/bin/jupyter-notebook', debianPackage: 'jupyter-notebook' },
  { path: '/usr/bin/bwrap', debianPackage: 'bubblewrap' },
  { path: '/usr/bin/setpriv', debianPackage: 'util-linux' },
  // The seccomp filter is made with libseccomp's Python binding.
  { path: '/usr/lib/python3/dist-packages/seccomp', debianPackage: 'python3-seccomp' },
  // Each home is an ext4 image, loop-mounted: its size is the notebook's disk quota.
  { path: '/usr/sbin/mkfs.ext4', debianPackage: 'e2fsprogs' },
  { path: '/usr/bin/mount', debianPackage: 'mount' },
];

export interface HostCheck {
  /** Debian packages missing for every environment. */
  missingBase: string[];
  /** Environment id → its own missing packages. */
  missingByEnvironment: Record<string, string[]>;
  isRoot: boolean;
}

/** Looks at the host once: file checks only, so it costs microseconds at start. */
export function checkHost(): HostCheck {
  const missingBase = BASE_REQUIREMENTS.filter((r) => !present(r.path)).map((r) => r.debianPackage);
  const missingByEnvironment: Record<string, string[]> = {};
  for (const [id, environment] of Object.entries(LOCAL_ENVIRONMENTS)) {
    missingByEnvironment[id] = environment.requiredPaths.some((p) => !existsSync(p)) ? environment.debianPackages : [];
  }
  return { missingBase, missingByEnvironment, isRoot: process.getuid?.() === 0 };
}

/** A file, or a Python extension module named without its ABI suffix (`…/seccomp` for `seccomp.cpython-311-….so`). */
function present(file: string): boolean {
  if (existsSync(file)) return true;
  const dir = path.dirname(file);
  const name = path.basename(file);
  return existsSync(dir) && readdirSync(dir).some((entry) => entry.startsWith(`${name}.`) && entry.endsWith('.so'));
}

/** The sentence an operator reads when packages are missing. */
export function installHint(packages: string[]): string {
  return `apt-get install -y ${[...new Set(packages)].join(' ')}`;
}
