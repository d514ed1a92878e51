import { describe, expect, it } from 'vitest';
import { QUERY_NOT_EXECUTED } from '@hdp/contract/query-details';
import { formatDateTime } from '@/lib/dates/local-times';
import {
  COHORT_TRY_AGAIN,
  detailInWords,
  DOCUMENT_TRY_AGAIN,
  ERROR_CATALOGUE,
  findCatalogueEntry,
  NOTEBOOK_CREATION_FALLBACK,
  NOTEBOOK_TRY_AGAIN,
  presentError,
  SOMETHING_WENT_WRONG,
  UNREACHABLE_DESCRIPTION,
  UNREACHABLE_TITLE,
  USER_CHANGE_REFUSED,
  WORKBENCH_EDITS_WITH_ERRORS,
  type ApiFailure,
  type ErrorPresentation,
} from './error-catalogue';

/** One case per catalogue row (and a few per row where the row has several ways to match). */
const CASES: { name: string; failure: ApiFailure; expected: ErrorPresentation }[] = [
  ...(['getUser', 'disableUser', 'enableUser', 'resendInvitation', 'revokeInvitation', 'resetUserMfa', 'endUserSessions'] as const).flatMap((endpoint) =>
    [404, 401].map((status) => ({
      name: `user operation ${endpoint} ${status}`,
      failure: { endpoint, status, detail: 'User not found.' },
      expected: { type: 'error' as const, message: 'User does not exist', description: undefined, refreshPrompt: false, unexpected: false },
    })),
  ),
  ...[404, 401].map((status) => ({
    name: `user list ${status}`,
    failure: { endpoint: 'listUsers', status },
    expected: { type: 'error' as const, message: 'No users found', description: undefined, refreshPrompt: false, unexpected: false },
  })),
  ...(['disableUser', 'enableUser', 'resendInvitation', 'revokeInvitation'] as const).map((endpoint) => ({
    name: `user change ${endpoint} refused by the state`,
    failure: { endpoint, status: 409, detail: 'You cannot disable your own account.' },
    expected: {
      type: 'error' as const, message: USER_CHANGE_REFUSED, description: 'You cannot disable your own account.', refreshPrompt: false, unexpected: false,
    },
  })),
  ...([[400, 'body.invitations.0.email: Invalid email address'], [409, 'x@example.org: A user with this email already exists (ACTIVE).']] as const).map(([status, detail]) => ({
    name: `invitation request ${status}, shown in the dialog`,
    failure: { endpoint: 'inviteUsers', status, detail },
    expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  })),
  ...(['inspectInvitation', 'acceptInvitation'] as const).flatMap((endpoint) =>
    [400, 401, 404, 409].map((status) => ({
      name: `${endpoint} ${status}, shown on the page`,
      failure: { endpoint, status, detail: 'This invitation is no longer valid. Ask an administrator to send a new one.' },
      expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
    })),
  ),
  {
    name: 'workbench update 409 for a stale version: no toast (the wizard says it above its buttons)',
    failure: { endpoint: 'updateWorkbench', status: 409, detail: 'version: this workbench was changed by Stella (stella@example.org) at 2026-11-26T16:24:54.013Z (it is now at version 2).' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'workbench update 409 for a name already used: no toast (the wizard marks the name)',
    failure: { endpoint: 'updateWorkbench', status: 409, detail: 'name: you already have a workbench called "Renal"; choose another name.' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'workbench update 418',
    failure: { endpoint: 'updateWorkbench', status: 418, detail: 'stored with errors' },
    expected: {
      type: 'warning', message: 'Workbench Edits Submitted with Errors', description: WORKBENCH_EDITS_WITH_ERRORS,
      refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'workbench create 418, listing what was refused',
    failure: { endpoint: 'createWorkbench', status: 418, detail: 'stored with errors', refused: [{ kind: 'user', reason: 'stella@example.org is disabled' }] },
    expected: {
      type: 'warning', message: 'Workbench Edits Submitted with Errors', description: WORKBENCH_EDITS_WITH_ERRORS,
      refreshPrompt: false, unexpected: false, items: ['User: stella@example.org is disabled'],
    },
  },
  {
    name: 'workbench create refused for a name already used: no toast (the wizard marks the name)',
    failure: { endpoint: 'createWorkbench', status: 409, detail: 'name: you already have a workbench called "Diabetes".' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'workbench create refused',
    failure: { endpoint: 'createWorkbench', status: 409, detail: 'A workbench can hold at most 20 cohorts.' },
    expected: {
      type: 'error', message: 'Error! Unable to create workbench.', description: 'A workbench can hold at most 20 cohorts.',
      refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: "a workbench's notebooks after it was deleted: the page says so, no toast",
    failure: { endpoint: 'listNotebooks', status: 404, detail: 'Workbench does not exist.' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'missing workbench, shown on the page',
    failure: { endpoint: 'getWorkbench', status: 404, detail: 'Workbench not found.' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  ...([400, 413, 422] as const).map((status) => ({
    name: `ATLAS import ${status}, shown in the dialog`,
    failure: { endpoint: 'importAtlasQuery', status, detail: 'definition.PrimaryCriteria.CriteriaList[0].DoseEra: dose eras are not supported' },
    expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  })),
  {
    name: 'ATLAS export of a query without a definition',
    failure: { endpoint: 'exportAtlasQuery', status: 422, detail: 'This query has no cohort definition, so there is nothing ATLAS could import.' },
    expected: {
      type: 'warning', message: 'This query cannot be exported as ATLAS JSON', description: 'This query has no cohort definition, so there is nothing ATLAS could import.', refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'workbench delete',
    failure: { endpoint: 'deleteWorkbench', status: 409, detail: 'Stop its notebooks first.' },
    expected: { type: 'error', message: 'Error! Unable to delete workbench.', description: 'Stop its notebooks first.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'notebook creation with a server description',
    failure: { endpoint: 'createNotebook', status: 422, detail: 'No capacity in the zone.' },
    expected: { type: 'error', message: 'Notebook Creation Error.', description: 'No capacity in the zone.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'notebook creation without one',
    failure: { endpoint: 'createNotebook', status: 500 },
    expected: { type: 'error', message: 'Notebook Creation Error.', description: NOTEBOOK_CREATION_FALLBACK, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'a notebook start refused',
    failure: { endpoint: 'startNotebook', status: 409, detail: 'The notebook is RUNNING; only a STOPPED or FAILED notebook can be started.' },
    expected: { type: 'error', message: 'The notebook could not be started.', description: 'The notebook is RUNNING; only a STOPPED or FAILED notebook can be started.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'a notebook stop refused without a reason',
    failure: { endpoint: 'stopNotebook', status: 409 },
    expected: { type: 'error', message: 'The notebook could not be stopped.', description: NOTEBOOK_TRY_AGAIN, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'a notebook delete refused',
    failure: { endpoint: 'deleteNotebook', status: 403, detail: 'Only its creator or an owner of the workbench may delete it.' },
    expected: { type: 'error', message: 'The notebook could not be deleted.', description: 'Only its creator or an owner of the workbench may delete it.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'a notebook open refused',
    failure: { endpoint: 'openNotebook', status: 409, detail: 'The notebook is not running.' },
    expected: { type: 'error', message: 'The notebook could not be opened.', description: 'The notebook is not running.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'cohort update',
    failure: { endpoint: 'updateCohort', status: 403, detail: 'Only data stewards can publish.' },
    expected: { type: 'error', message: 'Cohort Publication Error.', description: 'Only data stewards can publish.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'cohort publication below the suppression threshold',
    failure: { endpoint: 'updateCohort', status: 409, detail: 'A cohort of fewer than 20 persons cannot be published.' },
    expected: {
      type: 'error', message: 'Cohort Publication Error.', description: 'A cohort of fewer than 20 persons cannot be published.',
      refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'cohort creation from a run of data reloaded since',
    failure: { endpoint: 'createCohort', status: 409, detail: 'The data was reloaded since this run: run the query again.' },
    expected: {
      type: 'error', message: 'Cohort Creation Error.', description: 'The data was reloaded since this run: run the query again.',
      refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'cohort creation without a reason',
    failure: { endpoint: 'createCohort', status: 500 },
    expected: { type: 'error', message: 'Cohort Creation Error.', description: COHORT_TRY_AGAIN, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'cohort refresh of an archived cohort',
    failure: { endpoint: 'refreshCohort', status: 409, detail: 'An archived cohort cannot be refreshed.' },
    expected: { type: 'error', message: 'Cohort Refresh Error.', description: 'An archived cohort cannot be refreshed.', refreshPrompt: false, unexpected: false },
  },
  ...[400, 404].map((status) => ({
    name: `cohort read ${status}, shown on the page`,
    failure: { endpoint: 'getCohort', status, detail: 'Cohort does not exist.' },
    expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  })),
  ...[404, 503].map((status) => ({
    name: `dashboard tokens ${status}, shown in the Dashboards tab`,
    failure: { endpoint: 'getVisualisationToken', status, detail: 'Dashboards are not configured.' },
    expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  })),
  {
    name: 'query creation',
    failure: { endpoint: 'createQuery', status: 400, detail: 'name: is required' },
    expected: { type: 'error', message: 'Query Creation Error.', description: 'name: is required', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'latest query execution not run yet',
    failure: { endpoint: 'getLatestQueryExecution', status: 404, detail: QUERY_NOT_EXECUTED },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  // The API unreachable: every call, whatever its own row, reads the same (a refused update, a run, a list).
  ...([
    ['getMe', 'FETCH_ERROR'], ['listQueries', 502], ['updateCohort', 502], ['listUsers', 504], ['inviteUsers', 'FETCH_ERROR'], ['getCohort', 502],
  ] as const).map(([endpoint, status]) => ({
    name: `the API unreachable: ${endpoint} ${status}`,
    failure: { endpoint, status, detail: 'The API is not reachable.' },
    expected: { type: 'error' as const, message: UNREACHABLE_TITLE, description: UNREACHABLE_DESCRIPTION, refreshPrompt: false, unexpected: false },
  })),
  {
    name: 'a tree the server refuses, shown on its rule in the builder',
    failure: { endpoint: 'updateQuery', status: 400, detail: 'query.rules[0] (person.age): value must be a number' },
    expected: { type: 'error', message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  },
  ...(['executeAnonymousQuery', 'executeQuery', 'getQueryExecution'] as const).map((endpoint) => ({
    name: `${endpoint} failing, shown beside the results`,
    failure: { endpoint, status: 502, detail: 'The API is not reachable.' },
    expected: { type: 'error' as const, message: undefined, description: undefined, refreshPrompt: false, unexpected: false },
  })),
  {
    name: 'the API cannot serve now (503): the same title, the reason the server gives',
    failure: { endpoint: 'listCohorts', status: 503, detail: 'The database is being upgraded; try again in a few minutes.' },
    expected: {
      type: 'error', message: UNREACHABLE_TITLE, description: 'The database is being upgraded; try again in a few minutes.', refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'document upload refused by the API',
    failure: { endpoint: 'uploadDocument', status: 413, detail: 'The file is larger than the limit of 20,000,000 bytes.' },
    expected: {
      type: 'error', message: 'The document was not uploaded.', description: 'The file is larger than the limit of 20,000,000 bytes.',
      refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'document download of a document that is gone',
    failure: { endpoint: 'downloadDocument', status: 404 },
    expected: { type: 'error', message: 'The document could not be downloaded.', description: DOCUMENT_TRY_AGAIN, refreshPrompt: false, unexpected: false },
  },
  {
    name: 'document delete of a document that is gone',
    failure: { endpoint: 'deleteDocument', status: 404, detail: 'Document not found.' },
    expected: { type: 'error', message: 'The document could not be deleted.', description: 'Document not found.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'removing the only second factor while the platform requires one',
    failure: { endpoint: 'removeMfaFactor', status: 409, detail: 'This is your only second factor and the platform requires one: add another before removing it.' },
    expected: {
      type: 'error', message: 'The second factor was not removed.',
      description: 'This is your only second factor and the platform requires one: add another before removing it.', refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'a wrong code confirming an authenticator app',
    failure: { endpoint: 'confirmTotpEnrolment', status: 400, detail: 'code: that is not the code the authenticator app shows now (a code works once only); try the next one.' },
    expected: {
      type: 'error', message: 'That did not work.',
      description: 'That is not the code the authenticator app shows now (a code works once only); try the next one.', refreshPrompt: false, unexpected: false,
    },
  },
  {
    name: 'ending a session that is gone',
    failure: { endpoint: 'endMySession', status: 404, detail: 'No such session of yours.' },
    expected: { type: 'error', message: 'The session was not ended.', description: 'No such session of yours.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'timeout',
    failure: { endpoint: 'listCohorts', status: 'TIMEOUT_ERROR' },
    expected: { type: 'error', message: 'The server took too long to answer', description: 'Please try again in a moment.', refreshPrompt: false, unexpected: false },
  },
  {
    name: 'unreadable answer',
    failure: { endpoint: 'listQueries', status: 'PARSING_ERROR' },
    expected: {
      type: 'error', message: 'The server sent an answer that could not be read',
      description: 'Please try again; if it keeps happening, contact support.', refreshPrompt: false, unexpected: true,
    },
  },
  {
    name: 'anything else',
    failure: { endpoint: 'getMe', status: 500, detail: 'boom' },
    expected: { type: 'error', message: SOMETHING_WENT_WRONG, description: undefined, refreshPrompt: false, unexpected: true },
  },
];

describe('the error catalogue', () => {
  it.each(CASES)('$name', ({ failure, expected }) => {
    expect(presentError(failure)).toEqual(expected);
  });

  it('has a case for every row', () => {
    const covered = new Set(CASES.map(({ failure }) => findCatalogueEntry(failure)));
    const uncovered = ERROR_CATALOGUE.filter((row) => !covered.has(row));
    expect(uncovered).toEqual([]);
  });

  it('ends with a row that matches every failure', () => {
    expect(ERROR_CATALOGUE.at(-1)).toMatchObject({ endpoints: '*', statuses: '*', message: SOMETHING_WENT_WRONG });
  });

  it.each([
    ['a user operation with another status', { endpoint: 'getUser', status: 500 }],
    ['the user list with 403', { endpoint: 'listUsers', status: 403 }],
    ['a workbench update with 400', { endpoint: 'updateWorkbench', status: 400, detail: 'name: is required' }],
    ['the latest execution with another 404 detail', { endpoint: 'getLatestQueryExecution', status: 404, detail: 'Query not found.' }],
    ['a document upload the server failed', { endpoint: 'uploadDocument', status: 500 }],
    ['a route the catalogue does not name', { endpoint: 'listWorkbenches', status: 501 }],
    ['a cohort read the server failed', { endpoint: 'getCohort', status: 500 }],
    ['dashboard tokens the server failed', { endpoint: 'getVisualisationToken', status: 500 }],
  ])('falls back to "Something went wrong" for %s', (_name, failure) => {
    expect(presentError(failure)).toMatchObject({ message: SOMETHING_WENT_WRONG, unexpected: true });
  });
});

describe('detailInWords', () => {
  it('drops the field a refusal names and writes its UTC times in local time', () => {
    expect(detailInWords('version: this workbench was changed by Stella (stella@example.org) at 2026-11-26T16:24:54.013Z (it is now at version 2).')).toBe(
      `This workbench was changed by Stella (stella@example.org) on ${formatDateTime('2026-11-26T16:24:54.013Z')} (it is now at version 2).`,
    );
  });
});
