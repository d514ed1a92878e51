import { apiAs, savedAndRunQuery } from './api';
import { invitationLinkFor } from './outbox';
import { ACCOUNTS } from './stack';

/** Real records for the pages that show one: a cohort, a workbench with that cohort, an open invitation. */
export interface RouteFixtures {
  cohortId: string;
  cohortName: string;
  workbenchId: string;
  workbenchName: string;
  /** The invitation link's path and fragment (`/accept-invitation#token=…`). */
  invitationPath: string;
  /** A release request of that workbench, and its title. */
  releaseRequestId: string;
  releaseRequestTitle: string;
  /** A release request of the data steward's own workbench, which the review page shows them. */
  stewardRequestId: string;
  stewardRequestTitle: string;
}

/** One page of the web app as a person opens it. */
export interface AppRoute {
  /**
   * The Next.js page that serves it: the key of the build manifest and of
   * bench/web/performance-budgets.json. The sign-in page is next-auth's own, not a Next.js page.
   */
  page: string;
  /** Whether it is opened with an administrator's session (signed-in pages) or without one. */
  signedIn: boolean;
  /** A page for another role than the administrator's: whose session opens it instead. */
  account?: 'steward';
  /** The address to open. */
  path(fixtures: RouteFixtures): string;
  /** The heading the page shows once it has rendered, to tell the page from a redirect or an error. */
  heading(fixtures: RouteFixtures): string | RegExp;
}

const fixed = (path: string) => () => path;

/**
 * Every page of the web app (apps/web/src/pages, less `_app`, `_document` and the API routes), in one
 * list for the budget test (e2e/tests/performance-budgets.spec.ts) and the Lighthouse bench
 * (bench/web/lighthouse.ts). `_error` is absent: it renders only when a page throws on the server,
 * which no address makes happen; its chunks are the 404 page's shell.
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { page: '/', signedIn: true, path: fixed('/'), heading: () => `Welcome, ${ACCOUNTS.admin.name.split(' ')[0]}` },
  { page: '/data-explorer', signedIn: true, path: fixed('/data-explorer'), heading: () => 'Data Explorer' },
  { page: '/cohorts', signedIn: true, path: fixed('/cohorts'), heading: () => 'Cohorts' },
  { page: '/cohorts/[cohortId]', signedIn: true, path: (f) => `/cohorts/${f.cohortId}`, heading: (f) => f.cohortName },
  { page: '/workbenches', signedIn: true, path: fixed('/workbenches'), heading: () => 'Workbenches' },
  { page: '/workbenches/new', signedIn: true, path: fixed('/workbenches/new'), heading: () => 'Create a workbench' },
  { page: '/workbenches/[workbenchId]', signedIn: true, path: (f) => `/workbenches/${f.workbenchId}`, heading: (f) => f.workbenchName },
  { page: '/workbenches/[workbenchId]/edit', signedIn: true, path: (f) => `/workbenches/${f.workbenchId}/edit`, heading: (f) => `Edit ${f.workbenchName}` },
  { page: '/users', signedIn: true, path: fixed('/users'), heading: () => 'Users' },
  { page: '/documents', signedIn: true, path: fixed('/documents'), heading: () => 'Documents' },
  { page: '/audit-log', signedIn: true, path: fixed('/audit-log'), heading: () => 'Audit Log' },
  { page: '/account', signedIn: true, path: fixed('/account'), heading: () => 'Your account' },
  { page: '/review-outputs', signedIn: true, account: 'steward', path: fixed('/review-outputs'), heading: () => 'Review outputs' },
  {
    page: '/workbenches/[workbenchId]/outputs/[requestId]', signedIn: true,
    path: (f) => `/workbenches/${f.workbenchId}/outputs/${f.releaseRequestId}`, heading: (f) => f.releaseRequestTitle,
  },
  {
    page: '/review-outputs/[requestId]', signedIn: true, account: 'steward',
    path: (f) => `/review-outputs/${f.stewardRequestId}`, heading: (f) => f.stewardRequestTitle,
  },
  { page: '/signout', signedIn: true, path: fixed('/signout'), heading: () => 'Sign out' },
  { page: '/api/auth/signin', signedIn: false, path: fixed('/api/auth/signin'), heading: () => /^Sign in to / },
  { page: '/accept-invitation', signedIn: false, path: (f) => f.invitationPath, heading: () => 'Accept your invitation' },
  // Without a sign-in under way, the second step says it has expired (its card's heading is the same).
  { page: '/sign-in/second-factor', signedIn: false, path: fixed('/sign-in/second-factor'), heading: () => 'Second factor' },
  { page: '/404', signedIn: false, path: fixed('/no-such-page'), heading: () => 'Page not found' },
  { page: '/error', signedIn: false, path: fixed('/error?error=AccessDenied'), heading: () => 'Sign-in problem' },
];

const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };

/**
 * Makes the records the routes need through the real API (E2E_API_URL, E2E_DATA_DIR set): the
 * administrator runs a query, keeps its result as a cohort, publishes it, opens a workbench with it
 * (waiting until its files are written), starts a release request in it and invites someone.
 */
export async function prepareRouteFixtures(): Promise<RouteFixtures> {
  const stamp = Date.now();
  const admin = await apiAs(ACCOUNTS.admin);
  const { executionId } = await savedAndRunQuery(ACCOUNTS.admin, `Women, for page weights (${stamp})`, WOMEN);
  const cohortName = `Women, page weights (${stamp})`;
  const cohort = await admin.call<{ id: string }>('POST', '/cohorts/', { name: cohortName, tags: ['women'], executionId });
  await admin.call('PATCH', `/cohorts/${cohort.id}/`, { status: 'PUBLISHED' });
  const workbenchName = `Page weights workbench (${stamp})`;
  const workbench = await admin.call<{ id: string }>('POST', '/workbenches/', {
    name: workbenchName,
    purpose: 'To measure how much each page of the platform weighs on a mid-range phone, with real data.',
    cohorts: [{ id: cohort.id }],
  });
  await untilReady(admin, workbench.id);
  const releaseRequestTitle = `Tables for page weights (${stamp})`;
  const request = await admin.call<{ id: string }>('POST', `/workbenches/${workbench.id}/release-requests/`, { title: releaseRequestTitle });
  // The review page opened by a data steward: a request of a workbench of theirs (a member sees it
  // as it is; one to review would need a notebook's output file submitted first).
  const steward = await apiAs(ACCOUNTS.steward);
  const stewardWorkbench = await steward.call<{ id: string }>('POST', '/workbenches/', {
    name: `Page weights review (${stamp})`,
    purpose: 'To measure how much the review page of a release request weighs, with a real request.',
  });
  await untilReady(steward, stewardWorkbench.id);
  const stewardRequestTitle = `Review page weights (${stamp})`;
  const stewardRequest = await steward.call<{ id: string }>('POST', `/workbenches/${stewardWorkbench.id}/release-requests/`, { title: stewardRequestTitle });
  const invitee = `page.weights.${stamp}@example.org`;
  const invitedAt = Date.now() - 1_000;
  await admin.call('POST', '/users/', { invitations: [{ email: invitee, roles: ['RESEARCHER'] }] });
  const link = new URL(await invitationLinkFor(invitee, { after: invitedAt }));
  return {
    cohortId: cohort.id, cohortName, workbenchId: workbench.id, workbenchName, invitationPath: `${link.pathname}${link.hash}`,
    releaseRequestId: request.id, releaseRequestTitle, stewardRequestId: stewardRequest.id, stewardRequestTitle,
  };
}

/** Waits until a new workbench's files are written. */
async function untilReady(account: Awaited<ReturnType<typeof apiAs>>, workbenchId: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { state } = await account.call<{ state: string }>('GET', `/workbenches/${workbenchId}/`);
    if (state === 'READY') return;
    if (state === 'FAILED' || attempt > 120) throw new Error(`the workbench for the page weights did not become ready (${state})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The routes named in a comma-separated list of pages (e.g. `/users,/audit-log`); all when the list is empty. */
export function selectRoutes(list: string | undefined): readonly AppRoute[] {
  if (!list) return APP_ROUTES;
  const wanted = list.split(',').map((page) => page.trim()).filter(Boolean);
  const unknown = wanted.filter((page) => !APP_ROUTES.some((route) => route.page === page));
  if (unknown.length > 0) throw new Error(`Unknown route ${unknown.join(', ')}; the routes are ${APP_ROUTES.map((route) => route.page).join(', ')}`);
  return APP_ROUTES.filter((route) => wanted.includes(route.page));
}
