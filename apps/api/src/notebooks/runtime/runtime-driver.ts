/**
 * The notebook runtime seen by the rest of the API: one interface, so that the embedded local
 * driver (a sandboxed Jupyter server per notebook on this host) and a cluster driver (a pod per
 * notebook, see docs/notebooks.md) are interchangeable behind the lifecycle commands.
 */

/** What a machine type maps to on the runtime (the catalogue's `runtime` block). */
export interface RuntimeLimits {
  /** CPU cores the notebook may use (fractions allowed). */
  cpuLimit: number;
  memoryLimitMb: number;
  /** Processes and threads together, as the kernel counts tasks. */
  maxProcesses: number;
}

/** Names one notebook: the driver keeps its files under its workbench. */
export interface NotebookRef {
  notebookId: string;
  workbenchId: string;
}

/** Everything a driver needs to run a notebook. */
export interface NotebookRuntimeSpec extends NotebookRef {
  /** A catalogue environment id (`python3-datascience`, `r-tidyverse`). */
  environment: string;
  limits: RuntimeLimits;
  accelerator?: { type: string; count: number };
}

/** What the driver sees of a notebook: running, stopped (files kept), or failed with the reason. */
export type RuntimeState = 'RUNNING' | 'STOPPED' | 'FAILED';

export interface RuntimeStatus {
  state: RuntimeState;
  reason?: string;
}

/** How the platform's proxy reaches a running notebook. The token never leaves the API. */
export interface NotebookUpstream {
  socketPath: string;
  token: string;
  /** The Jupyter server's base URL, which is also the public path of the proxy. */
  basePath: string;
  /**
   * The notebook's home on this machine's disk, when the runtime keeps it here: the proxy then
   * serves plain files of it (`/files/…`) itself instead of through the Jupyter server.
   */
  homeDir?: string;
}

/** Jupyter's own view of activity (`/api/status`). */
export interface NotebookActivity {
  lastActivity: Date;
  /** Open kernel connections. */
  connections: number;
  kernels: number;
}

/** What a reconcile at start found for one notebook that had runtime state on disk. */
export interface ReconcileOutcome extends NotebookRef {
  /** `gone`: its processes had ended; `orphan-stopped`: they were still running and were stopped. */
  outcome: 'gone' | 'orphan-stopped';
  reason: string;
}

/** Whether the driver can run notebooks on this deployment, and what to install if not. */
export interface RuntimeAvailability {
  available: boolean;
  /** Why not, as a sentence an operator can act on (the API's 503 detail). */
  detail?: string;
  /** Catalogue environment id → whether it can run here, and what to install when it cannot. */
  environments: Record<string, { available: boolean; detail?: string }>;
  /** How each limit is enforced on this host, for the docs and the operator. */
  enforcement: { memory: string; cpu: string; processes: string; disk?: string };
}

export type RuntimeExitListener = (ref: NotebookRef, status: RuntimeStatus) => void;

export interface NotebookRuntimeDriver {
  readonly kind: string;
  availability(): RuntimeAvailability;
  /** Throws RuntimeUnavailableError or RuntimeRequestError when this spec cannot run here. */
  validate(spec: NotebookRuntimeSpec): void;
  /** Prepares the notebook's home and starts it; resolves once its server answers. */
  create(spec: NotebookRuntimeSpec): Promise<void>;
  /** Starts a stopped notebook on its kept home; resolves once its server answers. */
  start(spec: NotebookRuntimeSpec): Promise<void>;
  /** Stops it; its files stay. Stopping a notebook that is not running does nothing. */
  stop(ref: NotebookRef): Promise<void>;
  /** Stops it if running and removes its files for good. */
  delete(ref: NotebookRef): Promise<void>;
  status(ref: NotebookRef): Promise<RuntimeStatus>;
  /** The notebooks this process runs now. */
  runningNotebooks(): NotebookRef[];
  /** At start: finds notebooks whose processes outlived or died with a previous API process. */
  reconcile(): Promise<ReconcileOutcome[]>;
  upstream(notebookId: string): NotebookUpstream | undefined;
  activity(notebookId: string): Promise<NotebookActivity | undefined>;
  /** Called when a running notebook ends without being stopped (crash, out of memory). */
  onUnexpectedExit(listener: RuntimeExitListener): void;
  /** Stops every notebook this process started (API shutdown). */
  close(): Promise<void>;
}

/** The runtime cannot run notebooks here (missing packages, not root): the API answers 503. */
export class RuntimeUnavailableError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'RuntimeUnavailableError';
  }
}

/** The request cannot be met on this runtime (an accelerator the host lacks): the API answers 422. */
export class RuntimeRequestError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'RuntimeRequestError';
  }
}

/** The server did not come up: the notebook becomes FAILED with this reason. */
export class RuntimeStartError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'RuntimeStartError';
  }
}
