import type { FastifyBaseLogger } from 'fastify';
import type { NotebookRef, NotebookRuntimeDriver } from './runtime/runtime-driver';
import type { ProxyActivity } from './proxy-activity';

export interface IdleMonitorOptions {
  driver: NotebookRuntimeDriver;
  activity: ProxyActivity;
  /** A notebook unused this long is stopped (NOTEBOOK_IDLE_MINUTES). */
  idleMs: number;
  /** How often running notebooks are looked at; by default a quarter of idleMs, at most a minute. */
  intervalMs?: number;
  /** Stops an idle notebook (the lifecycle command, which audits it). */
  onIdle: (ref: NotebookRef, idleForMs: number) => Promise<void>;
  logger?: FastifyBaseLogger;
}

/**
 * Idle auto-stop. A notebook is idle when Jupyter reports no open kernel connection and no
 * activity (its kernels' messages and API calls) for idleMs, and the proxy has carried no request
 * or message and holds no WebSocket for as long. Its files persist; it starts again on demand.
 */
export class IdleMonitor {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(private readonly options: IdleMonitorOptions) {}

  start(): void {
    const interval = this.options.intervalMs ?? Math.min(60_000, Math.max(1000, this.options.idleMs / 4));
    this.timer = setInterval(() => void this.sweep(), interval);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at every running notebook; public so that a test or an operator can force it. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const now = Date.now();
      for (const ref of this.options.driver.runningNotebooks()) {
        if (this.options.activity.connections(ref.notebookId) > 0) continue;
        const jupyter = await this.options.driver.activity(ref.notebookId);
        if (!jupyter || jupyter.connections > 0) continue;
        const last = Math.max(jupyter.lastActivity.getTime(), this.options.activity.lastSeen(ref.notebookId) ?? 0);
        const idleFor = now - last;
        if (idleFor < this.options.idleMs) continue;
        await this.options.onIdle(ref, idleFor).catch((error: unknown) => {
          this.options.logger?.warn({ err: error, notebookId: ref.notebookId }, 'stopping an idle notebook failed');
        });
      }
    } finally {
      this.sweeping = false;
    }
  }
}
