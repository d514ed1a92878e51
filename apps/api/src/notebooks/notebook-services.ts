import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services';
import type { Config } from '../config';
import { stopIdleNotebook } from './notebook-commands';
import { notebookRepository } from './notebook-repository';
import { IdleMonitor } from './idle-monitor';
import { notebookBasePath } from './notebook-proxy';
import { NotebookSessions } from './notebook-sessions';
import { notebookOrigins, type NotebookOrigins } from './notebook-origin';
import { ProxyActivity } from './proxy-activity';
import { ProxyConnections } from './proxy-connections';
import type { EgressMeter } from './egress/egress-meter';
import { createEgressMeter } from './egress/egress-control';
import { LocalNotebookDriver } from './runtime/local-driver';
import type { NotebookRef, NotebookRuntimeDriver } from './runtime/runtime-driver';

/** The notebook runtime and what surrounds it: the open flow's sessions, the proxy's activity, idle stop. */
export interface NotebookServices {
  driver: NotebookRuntimeDriver;
  sessions: NotebookSessions;
  /** Each notebook's own origin (`<id>.notebooks.<domain>`). */
  origins: NotebookOrigins;
  activity: ProxyActivity;
  /** The proxy's open WebSockets, closed when their user's access ends. */
  connections: ProxyConnections;
  /** What reaches the browser from notebooks, against the limits (set once the services exist). */
  egress?: EgressMeter;
  idle: IdleMonitor;
  /**
   * What an idle notebook's stop does. By default the runtime stops it; the lifecycle module
   * replaces it with its stop command, which records the state and the audit entry.
   */
  stopIdle: (ref: NotebookRef, idleForMs: number) => Promise<void>;
}

/** Builds the notebook services of this deployment: the local driver, the embedded default. */
export function createNotebookServices(config: Config, logger: FastifyBaseLogger): NotebookServices {
  const driver = new LocalNotebookDriver({
    workbenchesDir: config.workbenches.dir,
    basePath: notebookBasePath,
    socketRoot: config.notebooks.socketDir,
    startTimeoutMs: config.notebooks.startTimeoutSeconds * 1000,
    homeQuotaMb: config.notebooks.homeQuotaMb,
    logger,
  });
  const sessions = new NotebookSessions();
  const activity = new ProxyActivity();
  const connections = new ProxyConnections();
  const services: NotebookServices = {
    driver,
    sessions,
    origins: notebookOrigins(config.notebooks.baseUrl),
    activity,
    connections,
    idle: new IdleMonitor({
      driver,
      activity,
      idleMs: config.notebooks.idleMinutes * 60_000,
      onIdle: (ref, idleForMs) => services.stopIdle(ref, idleForMs),
      logger,
    }),
    stopIdle: async (ref, idleForMs) => {
      logger.info({ notebookId: ref.notebookId, idleSeconds: Math.round(idleForMs / 1000) }, 'stopping an idle notebook');
      await driver.stop(ref);
      sessions.revokeNotebook(ref.notebookId);
      connections.closeNotebook(ref.notebookId, 'The notebook stopped.');
      activity.forget(ref.notebookId);
    },
  };
  return services;
}

/**
 * Hands the lifecycle what the runtime reports on its own: an idle notebook is stopped through
 * the stop command (status, audit entry, job), and a server that ends unexpectedly makes its
 * notebook FAILED with the reason.
 */
export function connectNotebookLifecycle(services: AppServices): void {
  const { notebooks, db, logger } = services;
  notebooks.stopIdle = (ref, idleForMs) => stopIdleNotebook(services, ref, idleForMs);
  notebooks.egress = createEgressMeter(services);
  notebooks.driver.onUnexpectedExit((ref, status) => {
    notebooks.sessions.revokeNotebook(ref.notebookId);
    notebookRepository
      .moveStatus(db, ref.notebookId, ['RUNNING'], 'FAILED', status.reason ?? 'The notebook server ended unexpectedly.')
      .catch((error: unknown) => logger.error({ err: error, notebookId: ref.notebookId }, 'recording a failed notebook failed'));
  });
}
