import { detailOf } from './api-error-handler';
import { UNREACHABLE_DESCRIPTION, UNREACHABLE_STATUSES, UNREACHABLE_TITLE } from './error-catalogue';

/**
 * Why data could not be loaded, in the words the toasts use: the server unreachable (the network,
 * offline, the gateway), unable to serve now (503, with its reason), too slow, or anything else.
 */
export function describeLoadFailure(error: unknown): string {
  const status = (error as { status?: unknown } | undefined)?.status;
  if ((UNREACHABLE_STATUSES as readonly unknown[]).includes(status)) return `${UNREACHABLE_TITLE}. ${UNREACHABLE_DESCRIPTION}`;
  if (status === 503) return `${UNREACHABLE_TITLE}. ${detailOf((error as { data?: unknown }).data) ?? UNREACHABLE_DESCRIPTION}`;
  if (status === 'TIMEOUT_ERROR') return 'The server took too long to answer. Please try again in a moment.';
  return 'Something went wrong on the server. Please try again.';
}
