import type { ReleaseRequestState } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { releaseRepository, type ReleaseRequestView } from './release-repository';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Sends one message; a delivery problem is logged, never undoes the change it tells of. */
async function send(services: AppServices, to: string, subject: string, lines: string[]): Promise<void> {
  try {
    await services.mailer.send({ to, subject, text: `${lines.join('\n\n')}\n`, html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') });
  } catch (error) {
    services.logger.warn({ err: error, to }, 'release request mail could not be sent');
  }
}

const link = (services: AppServices, path: string) => `${services.config.webUrl.replace(/\/$/, '')}${path}`;

/** Tells every checker (ACTIVE data stewards outside the workbench, not the author) of a submission. */
export async function notifyCheckers(services: AppServices, request: ReleaseRequestView, resubmitted: boolean): Promise<void> {
  const checkers = (await releaseRepository.outsiders(services.db, request.workbenchId, ['DATA_STEWARD'])).filter((c) => c.id !== request.authorId);
  for (const checker of checkers) {
    await send(services, checker.email, `Outputs to review: ${request.title}`, [
      `${request.author.email} ${resubmitted ? 'resubmitted' : 'submitted'} the release request "${request.title}" of workbench "${request.workbenchName}".`,
      `It needs ${request.requiredReviews} independent reviews. Review it here: ${link(services, `/review-outputs/${request.id}`)}`,
    ]);
  }
}

const OUTCOME: Partial<Record<ReleaseRequestState, string>> = {
  RETURNED: 'was returned to you for changes',
  APPROVED: 'was approved; it will be released shortly',
  REJECTED: 'was rejected: these outputs may not leave the workbench',
  RELEASED: 'was released: its package is ready to download',
};

/** Tells the author what became of their request. */
export async function notifyAuthor(services: AppServices, request: ReleaseRequestView, state: ReleaseRequestState, reason: string | null): Promise<void> {
  await send(services, request.author.email, `Release request ${state.toLowerCase()}: ${request.title}`, [
    `Your release request "${request.title}" of workbench "${request.workbenchName}" ${OUTCOME[state] ?? `is now ${state}`}.`,
    ...(reason ? [`The checkers wrote: ${reason}`] : []),
    `See it here: ${link(services, `/workbenches/${request.workbenchId}/outputs/${request.id}`)}`,
  ]);
}
