import type { AppServices } from '../app-services';

/**
 * At API start, once the job worker has reconciled the runtime and the notebooks' statuses (its
 * recover step, before the API listens): the idle monitor.
 */
export async function startNotebooks(services: AppServices): Promise<void> {
  services.notebooks.idle.start();
}
