import type { ErrorReportContext } from './error-reporter';

/**
 * Calls whose arguments or answers hold health data (query trees, counts, demographics) or
 * personal data and credentials (addresses, passwords, invitation tokens). Their arguments and
 * answers are never sent to the error-reporting service: only the server's `detail` is.
 */
export const DATA_ENDPOINTS: ReadonlySet<string> = new Set([
  'executeAnonymousQuery', 'executeQuery', 'getDataset', 'getQueryExecution', 'getLatestQueryExecution',
  'createQuery', 'updateQuery', 'listQueries', 'searchConcepts',
  'createCohort', 'updateCohort', 'getCohort', 'listCohorts', 'refreshCohort',
  'createWorkbench', 'updateWorkbench', 'getWorkbench', 'listWorkbenches',
  'inviteUsers', 'resendInvitation', 'inspectInvitation', 'acceptInvitation', 'getUser', 'listUsers', 'searchUserDirectory', 'getMe',
  'listAuditLog', 'uploadDocument', 'downloadDocument', 'listDocuments',
  'getVisualisationToken',
]);

const SECRET_KEY = /pass(word)?|secret|token|authori[sz]ation|cookie|credential|session|email/i;
const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
const TOKEN = /\b(eyJ[\w-]+\.[\w-]+\.[\w-]*|Bearer\s+\S+|[A-Za-z0-9_-]{40,})\b/g;

/** Removes e-mail addresses and tokens from free text. */
export function scrubText(text: string): string {
  return text.replace(EMAIL, '[email]').replace(TOKEN, '[token]');
}

/** A copy with secret-named keys redacted and addresses and tokens removed from every string. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => scrubValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, SECRET_KEY.test(key) ? '[redacted]' : scrubValue(item, depth + 1)]),
  );
}

/** A URL without its query values (search boxes hold names and addresses) or fragment (invitation tokens). */
export function scrubUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  const [beforeHash] = url.split('#');
  const [path, query] = (beforeHash ?? '').split('?');
  const keys = query ? [...new URLSearchParams(query).keys()] : [];
  return scrubText(`${path}${keys.length ? `?${keys.map((k) => `${k}=[redacted]`).join('&')}` : ''}`);
}

/**
 * What of a failed call goes to the error-reporting service (spec §8: endpoint, method, status,
 * args, response and url), with data routes' arguments and answers left out.
 */
export function scrubReportContext(context: ErrorReportContext): ErrorReportContext {
  const dataRoute = DATA_ENDPOINTS.has(context.endpoint);
  const detail =
    context.response && typeof context.response === 'object' && 'detail' in context.response
      ? { detail: scrubValue((context.response as { detail: unknown }).detail) }
      : undefined;
  return {
    endpoint: context.endpoint,
    method: context.method,
    status: context.status,
    args: dataRoute ? '[not sent: data route]' : scrubValue(context.args),
    response: dataRoute ? (detail ?? '[not sent: data route]') : scrubValue(context.response),
    url: scrubUrl(context.url),
  };
}
