import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database, DbOrTx } from '../db/database';
import type { JobHandler } from '../jobs/job-worker';
import type { ComputeCatalogue } from '../workbenches/compute-catalogue';
import { NOTEBOOK_JOB, runtimeSpecOf, type LifecyclePayload } from './notebook-commands';
import { notebookRepository } from './notebook-repository';
import type { NotebookServices } from './notebook-services';
import { RuntimeRequestError, RuntimeStartError, RuntimeUnavailableError } from './runtime/runtime-driver';
import type { NotebookStatus } from '@hdp/contract';

/** Lifecycle steps one API process runs at once. */
const CONCURRENCY = 4;

const RESTARTED = 'The API restarted while the notebook was running; it was stopped. Its files are kept.';

/** The status a step works from, and the one it ends in. */
const STEPS: Record<LifecyclePayload['step'], { from: NotebookStatus; to: NotebookStatus | 'gone' }> = {
  create: { from: 'PROVISIONING', to: 'RUNNING' },
  start: { from: 'STARTING', to: 'RUNNING' },
  stop: { from: 'STOPPING', to: 'STOPPED' },
  delete: { from: 'DELETING', to: 'gone' },
};

function describe(error: unknown): string {
  if (error instanceof RuntimeStartError || error instanceof RuntimeUnavailableError || error instanceof RuntimeRequestError) return error.detail;
  return 'The notebook runtime failed; the reason is in the server log.';
}

/**
 * The notebook lifecycle on the one job queue: each step calls the runtime driver, then records
 * the status the notebook reached in the same transaction that ends the job. A step whose
 * notebook is no longer in the step's starting status (a retried job after a restart) does nothing.
 */
export function notebookLifecycleHandler(deps: {
  notebooks: NotebookServices;
  catalogue: ComputeCatalogue;
  config: Config;
  logger: FastifyBaseLogger;
}): JobHandler {
  const { driver, sessions, activity } = deps.notebooks;
  return {
    kind: NOTEBOOK_JOB,
    concurrency: CONCURRENCY,
    async run({ job, db, finish }) {
      const payload = job.payload as unknown as LifecyclePayload;
      const step = STEPS[payload.step];
      const notebook = await notebookRepository.findById(db, payload.notebookId);
      if (!notebook || notebook.status !== step.from) {
        await finish('SUCCEEDED', async () => undefined);
        return;
      }
      const ref = { notebookId: notebook.id, workbenchId: notebook.workbenchId };
      try {
        if (payload.step === 'create') await driver.create(runtimeSpecOf({ computeCatalogue: deps.catalogue }, notebook));
        else if (payload.step === 'start') await driver.start(runtimeSpecOf({ computeCatalogue: deps.catalogue }, notebook));
        else if (payload.step === 'stop') await driver.stop(ref);
        else await driver.delete(ref);
      } catch (error) {
        const reason = describe(error);
        deps.logger.warn({ err: error, notebookId: notebook.id, step: payload.step }, 'notebook lifecycle step failed');
        await finish('FAILED', (tx) => notebookRepository.moveStatus(tx, notebook.id, [step.from], 'FAILED', reason).then(() => undefined), reason);
        return;
      }
      if (payload.step === 'stop' || payload.step === 'delete') {
        sessions.revokeNotebook(notebook.id);
        activity.forget(notebook.id);
      }
      const recorded = await finish('SUCCEEDED', async (tx) => {
        if (step.to === 'gone') await notebookRepository.delete(tx, notebook.id);
        else await notebookRepository.moveStatus(tx, notebook.id, [step.from], step.to, payload.step === 'stop' ? (payload.reason ?? null) : null);
      });
      // Another process took the job over meanwhile: leave the notebook as that one decides.
      if (!recorded) deps.logger.warn({ notebookId: notebook.id, step: payload.step }, 'notebook lifecycle job lost its claim');
    },
    async failed(tx: DbOrTx, job, reason) {
      const payload = job.payload as unknown as LifecyclePayload;
      await notebookRepository.moveStatus(tx, payload.notebookId, [STEPS[payload.step].from], 'FAILED', reason);
    },
    describeError: describe,
    /**
     * Before the first claim: the runtime's leftovers (orphans stopped, state files removed), then
     * no notebook left between states. The local runtime's servers end with the process that
     * started them, so what the database calls running is not running any more.
     */
    async recover(db: Database) {
      for (const outcome of await driver.reconcile()) {
        deps.logger.warn({ notebookId: outcome.notebookId, workbenchId: outcome.workbenchId, outcome: outcome.outcome }, outcome.reason);
      }
      for (const notebook of await notebookRepository.withStatus(db, ['PROVISIONING', 'STARTING', 'RUNNING', 'STOPPING', 'DELETING'])) {
        if (driver.upstream(notebook.id)) continue;
        const ref = { notebookId: notebook.id, workbenchId: notebook.workbenchId };
        if (notebook.status === 'DELETING') {
          await driver.delete(ref);
          await notebookRepository.delete(db, notebook.id);
          continue;
        }
        const home = path.join(deps.config.workbenches.dir, notebook.workbenchId, 'notebooks', notebook.id, 'home');
        if (existsSync(home)) await notebookRepository.moveStatus(db, notebook.id, [notebook.status], 'STOPPED', notebook.status === 'STOPPING' ? null : RESTARTED);
        else await notebookRepository.moveStatus(db, notebook.id, [notebook.status], 'FAILED', 'The API restarted before the notebook was made; delete it and create it again.');
      }
    },
  };
}
