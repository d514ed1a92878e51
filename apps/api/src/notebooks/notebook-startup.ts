import type { AppServices } from '../app-services';

/**
 * At API start: reconcile the runtime with what a previous process left (stopping orphans), then
 * start the idle monitor. Runs before the API listens, so no request sees a stale state.
 */
export async function startNotebooks(services: AppServices): Promise<void> {
  const { driver, idle } = services.notebooks;
  const outcomes = await driver.reconcile();
  for (const outcome of outcomes) {
    services.logger.warn({ notebookId: outcome.notebookId, workbenchId: outcome.workbenchId, outcome: outcome.outcome }, outcome.reason);
  }
  idle.start();
}
