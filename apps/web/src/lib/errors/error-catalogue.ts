import type { RouteId } from '@hdp/contract';
import { QUERY_NOT_EXECUTED } from '@hdp/contract/query-details';
import { withLocalTimes } from '@/lib/dates/local-times';

/** Client-side failures that have no HTTP status (from RTK Query's fetchBaseQuery). */
export type ClientFailure = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR';

/** Stands for "the server's `detail` text" in a description. */
export const SERVER_DETAIL = Symbol('server detail');

/** One row of the error catalogue: which failures it matches, and what the user is told. */
export interface CatalogueEntry {
  /** Endpoint names (the contract's route ids), or '*' for any endpoint. */
  endpoints: readonly RouteId[] | '*';
  /** HTTP statuses or client failures, or '*' for any. */
  statuses: readonly (number | ClientFailure)[] | '*';
  /** Matches only when the server's detail is exactly this. */
  detail?: string;
  /** Matches only when the server's detail starts with this (the field a refusal names: `name:`). */
  detailPrefix?: string;
  /** The notification title; absent means no title (the description stands alone). */
  message?: string;
  /** Fixed text, or SERVER_DETAIL for the server's detail. */
  description?: string | typeof SERVER_DETAIL;
  /** Used when the description is the server's detail and the server gave none. */
  fallbackDescription?: string;
  type: 'error' | 'warning';
  /** Adds 'Please refresh the page.' with a link that reloads. */
  refreshPrompt?: boolean;
  /** Reported to the console and the error reporter. */
  unexpected?: boolean;
  /** Lists, under the description, the parts the answer's `refused[]` names (a workbench 418). */
  listRefused?: boolean;
  /** Rewords the server's detail for a person (drops the field it names, writes times in local time). */
  inWords?: (detail: string) => string;
}

/** A refusal naming its field (`version: this workbench was changed …`) as a sentence, with local times. */
export function detailInWords(detail: string): string {
  const field = /^[a-z_.]+: /.exec(detail);
  if (!field) return withLocalTimes(detail);
  // Without its field, the refusal starts a sentence ("this workbench was changed …").
  const sentence = withLocalTimes(detail.slice(field[0].length));
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

const USER_OPERATIONS: readonly RouteId[] = ['getUser', 'disableUser', 'enableUser', 'resendInvitation', 'revokeInvitation', 'resetUserMfa', 'endUserSessions'];
const USER_CHANGES: readonly RouteId[] = ['disableUser', 'enableUser', 'resendInvitation', 'revokeInvitation'];

export const USER_CHANGE_REFUSED = 'This change is not possible';

export const WORKBENCH_EDITS_WITH_ERRORS =
  'Please review the data and user inclusions of the workbench and submit the edits again. If the problem persists, contact support.';
export const WORKBENCH_TRY_AGAIN = 'Please check the workbench and try again.';
export const NOTEBOOK_CREATION_FALLBACK = 'Sorry, there was an error in creating your notebook. Please try again.';
export const NOTEBOOK_TRY_AGAIN = 'Check its status in the list and try again.';
export const DOCUMENT_TRY_AGAIN = 'Please try again.';
export const COHORT_TRY_AGAIN = 'Sorry, that did not work. Please try again.';
export const SOMETHING_WENT_WRONG = 'Something went wrong';
export const UNREACHABLE_TITLE = 'Unable to reach the server';
export const UNREACHABLE_DESCRIPTION = 'Check your network connection and try again in a moment.';
/** Failures that mean the API could not be reached: the network (or the browser offline), or the gateway in front of it. */
export const UNREACHABLE_STATUSES = ['FETCH_ERROR', 502, 504] as const;

/**
 * The error catalogue (spec §8) as data. The first row that matches a failure decides what the
 * user sees; the last row matches everything.
 */
export const ERROR_CATALOGUE: readonly CatalogueEntry[] = [
  // A run that fails, or the API gone while it runs, is shown beside the results it
  // would have replaced (in the same words), so it comes before the one message for an unreachable API.
  {
    endpoints: ['executeAnonymousQuery', 'executeQuery', 'getQueryExecution'],
    statuses: [400, 404, 409, 422, 429, 502, 503, 504, 'FETCH_ERROR', 'TIMEOUT_ERROR'], type: 'error',
  },
  // One failure, one message: the API unreachable reads the same on every page and for every call.
  { endpoints: '*', statuses: UNREACHABLE_STATUSES, message: UNREACHABLE_TITLE, description: UNREACHABLE_DESCRIPTION, type: 'error' },
  { endpoints: USER_OPERATIONS, statuses: [404, 401], message: 'User does not exist', type: 'error' },
  { endpoints: ['listUsers'], statuses: [404, 401], message: 'No users found', type: 'error' },
  // A change the user's state (or the last-admin guard) does not allow: the API says why.
  { endpoints: USER_CHANGES, statuses: [409], message: USER_CHANGE_REFUSED, description: SERVER_DETAIL, type: 'error' },
  // The invite dialog and the accept-invitation page show these answers beside the form, not as toasts.
  // An ATLAS import's refusal is shown in its dialog, in words, with the place it names.
  { endpoints: ['importAtlasQuery'], statuses: [400, 413, 422], type: 'error' },
  { endpoints: ['inviteUsers'], statuses: [400, 409], type: 'error' },
  { endpoints: ['inspectInvitation', 'acceptInvitation'], statuses: [400, 401, 404, 409], type: 'error' },
  // A name already used is the user's to change, not a stale page: the wizard goes back to the name
  // and marks it with the server's words (quoting the existing workbench's name); no toast.
  { endpoints: ['updateWorkbench', 'createWorkbench'], statuses: [409], detailPrefix: 'name:', type: 'error' },
  // Changed by someone else since the edit began: the wizard says who and when (local time) above
  // its buttons, where a toast would cover them, and keeps the user's edits to apply again; no toast.
  { endpoints: ['updateWorkbench'], statuses: [409], type: 'error' },
  // The rest of the change was applied: a warning that says what was left out and what to do.
  {
    endpoints: ['updateWorkbench', 'createWorkbench'], statuses: [418], message: 'Workbench Edits Submitted with Errors',
    description: WORKBENCH_EDITS_WITH_ERRORS, type: 'warning', listRefused: true,
  },
  // A refused creation (a name already used among the user's workbenches, …): the API says why; the wizard keeps the draft.
  {
    endpoints: ['createWorkbench'], statuses: [400, 409, 422], message: 'Error! Unable to create workbench.',
    description: SERVER_DETAIL, fallbackDescription: WORKBENCH_TRY_AGAIN, type: 'error',
  },
  // A missing workbench, or one the user is not a member of (the API says 404 for both): the page says so.
  { endpoints: ['getWorkbench'], statuses: [400, 404], type: 'error' },
  { endpoints: ['exportAtlasQuery'], statuses: [422], message: 'This query cannot be exported as ATLAS JSON', description: SERVER_DETAIL, type: 'warning' },
  // A workbench deleted (or the user taken out of it) while its page is open: the page asks for the
  // workbench again and says it was deleted, by whom and when; the tab's own call needs no toast.
  { endpoints: ['listNotebooks', 'listEnvironments', 'listWorkbenchZones'], statuses: [404], type: 'error' },
  { endpoints: ['deleteWorkbench'], statuses: '*', message: 'Error! Unable to delete workbench.', description: SERVER_DETAIL, type: 'error' },
  {
    endpoints: ['createNotebook'], statuses: '*', message: 'Notebook Creation Error.',
    description: SERVER_DETAIL, fallbackDescription: NOTEBOOK_CREATION_FALLBACK, type: 'error',
  },
  // A notebook that moved on since the list was drawn (409), a runtime that cannot run here (503), …: the API says why.
  { endpoints: ['startNotebook'], statuses: [403, 404, 409, 422, 503], message: 'The notebook could not be started.',
    description: SERVER_DETAIL, fallbackDescription: NOTEBOOK_TRY_AGAIN, type: 'error' },
  { endpoints: ['stopNotebook'], statuses: [403, 404, 409], message: 'The notebook could not be stopped.',
    description: SERVER_DETAIL, fallbackDescription: NOTEBOOK_TRY_AGAIN, type: 'error' },
  { endpoints: ['deleteNotebook'], statuses: [403, 404, 409], message: 'The notebook could not be deleted.',
    description: SERVER_DETAIL, fallbackDescription: NOTEBOOK_TRY_AGAIN, type: 'error' },
  { endpoints: ['openNotebook'], statuses: [403, 404, 409, 503], message: 'The notebook could not be opened.',
    description: SERVER_DETAIL, fallbackDescription: NOTEBOOK_TRY_AGAIN, type: 'error' },
  { endpoints: ['updateCohort'], statuses: '*', message: 'Cohort Publication Error.', description: SERVER_DETAIL, type: 'error' },
  {
    endpoints: ['createCohort'], statuses: '*', message: 'Cohort Creation Error.',
    description: SERVER_DETAIL, fallbackDescription: COHORT_TRY_AGAIN, type: 'error',
  },
  {
    endpoints: ['refreshCohort'], statuses: '*', message: 'Cohort Refresh Error.',
    description: SERVER_DETAIL, fallbackDescription: COHORT_TRY_AGAIN, type: 'error',
  },
  // A missing cohort (or a draft the user may not see): the cohort page says so.
  { endpoints: ['getCohort'], statuses: [400, 404], type: 'error' },
  // Dashboards not configured (503) or a workbench the user is not in (404): the Dashboards tab says so.
  { endpoints: ['getVisualisationToken'], statuses: [404, 503], type: 'error' },
  // A refused tree names its rule (`query.rules[0] (person.age): …`): the builder highlights that rule
  // and says what to fix, so the path never reaches the screen as a toast.
  { endpoints: ['createQuery', 'updateQuery', 'executeAnonymousQuery'], statuses: [400], detailPrefix: 'query', type: 'error' },
  { endpoints: ['createQuery'], statuses: '*', message: 'Query Creation Error.', description: SERVER_DETAIL, type: 'error' },
  {
    endpoints: ['uploadDocument'], statuses: [400, 413, 415, 422, 503], message: 'The document was not uploaded.',
    description: SERVER_DETAIL, fallbackDescription: DOCUMENT_TRY_AGAIN, type: 'error',
  },
  {
    endpoints: ['downloadDocument'], statuses: [403, 404], message: 'The document could not be downloaded.',
    description: SERVER_DETAIL, fallbackDescription: DOCUMENT_TRY_AGAIN, type: 'error',
  },
  {
    endpoints: ['deleteDocument'], statuses: [403, 404], message: 'The document could not be deleted.',
    description: SERVER_DETAIL, fallbackDescription: DOCUMENT_TRY_AGAIN, type: 'error',
  },
  // The account page: a refusal says why in the API's words (the last factor while one is required, a wrong code).
  {
    endpoints: ['removeMfaFactor'], statuses: [404, 409], message: 'The second factor was not removed.',
    description: SERVER_DETAIL, type: 'error',
  },
  {
    endpoints: ['startTotpEnrolment', 'confirmTotpEnrolment', 'webauthnRegistrationOptions', 'registerWebauthn', 'renameMfaFactor', 'regenerateRecoveryCodes'],
    statuses: [400, 404, 409, 429], message: 'That did not work.', description: SERVER_DETAIL, inWords: detailInWords, type: 'error',
  },
  { endpoints: ['endMySession', 'endAllMySessions'], statuses: [404], message: 'The session was not ended.', description: SERVER_DETAIL, type: 'error' },
  // A saved query that never ran is a state the workspace shows in place (spec §8: the description only).
  { endpoints: ['getLatestQueryExecution'], statuses: [404], detail: QUERY_NOT_EXECUTED, type: 'error' },
  // The API is up but cannot serve now (a call whose own row names 503 says more above).
  { endpoints: '*', statuses: [503], message: UNREACHABLE_TITLE, description: SERVER_DETAIL, fallbackDescription: UNREACHABLE_DESCRIPTION, type: 'error' },
  {
    endpoints: '*', statuses: ['TIMEOUT_ERROR'], message: 'The server took too long to answer',
    description: 'Please try again in a moment.', type: 'error',
  },
  {
    endpoints: '*', statuses: ['PARSING_ERROR'], message: 'The server sent an answer that could not be read',
    description: 'Please try again; if it keeps happening, contact support.', type: 'error', unexpected: true,
  },
  { endpoints: '*', statuses: '*', message: SOMETHING_WENT_WRONG, type: 'error', unexpected: true },
];

/** A failed call, as the catalogue sees it. */
export interface ApiFailure {
  endpoint: string;
  status: number | ClientFailure | string;
  /** The server's `detail`, when the body had one. */
  detail?: string;
  /** The answer's `refused[]`, when it had one (a workbench 418). */
  refused?: readonly { kind: string; reason: string }[];
}

/** What to show for a failure. */
export interface ErrorPresentation {
  type: CatalogueEntry['type'];
  message?: string;
  description?: string;
  refreshPrompt: boolean;
  unexpected: boolean;
  /** The refused parts, one line each ("Cohort: archived since it was picked"), when the row lists them. */
  items?: string[];
}

function matches(entry: CatalogueEntry, failure: ApiFailure): boolean {
  const endpointOk = entry.endpoints === '*' || (entry.endpoints as readonly string[]).includes(failure.endpoint);
  const statusOk = entry.statuses === '*' || (entry.statuses as readonly (number | string)[]).includes(failure.status);
  const detailOk =
    (entry.detail === undefined || entry.detail === failure.detail) &&
    (entry.detailPrefix === undefined || (failure.detail?.startsWith(entry.detailPrefix) ?? false));
  return endpointOk && statusOk && detailOk;
}

/** Looks a failure up in the catalogue (the last row always matches). */
export function findCatalogueEntry(failure: ApiFailure, catalogue: readonly CatalogueEntry[] = ERROR_CATALOGUE): CatalogueEntry {
  const entry = catalogue.find((candidate) => matches(candidate, failure));
  if (!entry) throw new Error('The error catalogue must end with a row that matches every failure');
  return entry;
}

const KIND_LABELS: Record<string, string> = { cohort: 'Cohort', query: 'Query', document: 'Document', user: 'User' };

/** One refused part as a line of a notification: "Cohort: it was archived". */
export function describeRefusal(refusal: { kind: string; reason: string }): string {
  return `${KIND_LABELS[refusal.kind] ?? refusal.kind}: ${refusal.reason}`;
}

/** Decides the notification for a failure. */
export function presentError(failure: ApiFailure, catalogue: readonly CatalogueEntry[] = ERROR_CATALOGUE): ErrorPresentation {
  const entry = findCatalogueEntry(failure, catalogue);
  const description =
    entry.description === SERVER_DETAIL ? (failure.detail?.trim() && entry.inWords ? entry.inWords(failure.detail.trim()) : failure.detail?.trim()) || entry.fallbackDescription : entry.description;
  return {
    type: entry.type,
    message: entry.message,
    description,
    refreshPrompt: entry.refreshPrompt ?? false,
    unexpected: entry.unexpected ?? false,
    ...(entry.listRefused && failure.refused?.length ? { items: failure.refused.map(describeRefusal) } : {}),
  };
}
