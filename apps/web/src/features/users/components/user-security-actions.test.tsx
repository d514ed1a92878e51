import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USER_STATUSES } from '@hdp/contract/user-lifecycle';
import { ALL_PERMISSIONS } from '@hdp/contract/permissions';
import { aUser, fakeApi, renderWithStore, type RecordedCall } from '@/test-support/render';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { getMeApi } from '../api/get-me';
import { allowedSecurityActions, sessionsEndedText } from './user-security-actions';
import { UserRowActions } from './user-row-actions';

const signOut = vi.hoisted(() => vi.fn());
vi.mock('next-auth/react', async (importOriginal) => ({ ...(await importOriginal<typeof import('next-auth/react')>()), signOut }));

const ADMIN = aUser({ id: '11111111-1111-4111-8111-111111111111', email: 'root@example.org', name: 'Rita Root', roles: ['ADMIN'] });
const RESEARCHER = aUser({ id: '22222222-2222-4222-8222-222222222222', email: 'rob@example.org', name: 'Rob Researcher' });

/** The fake API: `users/me` answers as `me`; the two calls answer as the API does. */
function api(me: typeof ADMIN, reply: (call: RecordedCall) => { status?: number; body: unknown } | undefined = () => undefined) {
  return fakeApi((call) => {
    if (call.path === '/api/v1/users/me/') return { body: { ...me, permissions: ALL_PERMISSIONS } };
    const answer = reply(call);
    if (answer) return answer;
    if (call.path.startsWith('/api/v1/users/mfa-reset/')) return { status: 204, body: null };
    return { body: { sessions_ended: 2 } };
  });
}

async function renderAs(me: typeof ADMIN, user: typeof ADMIN) {
  const rendered = renderWithStore(<UserRowActions user={user} />);
  await rendered.store.dispatch(getMeApi.endpoints.getMe.initiate());
  return rendered;
}

const securityCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path !== '/api/v1/users/me/').map((c) => `${c.method} ${c.path}`);

describe("an administrator's sign-in security actions", () => {
  const toasts: Toast[] = [];
  beforeEach(() => {
    toasts.length = 0;
    signOut.mockReset();
    setNotifier({ show: (toast) => toasts.push(toast) });
  });
  afterEach(() => {
    setNotifier(null);
    vi.unstubAllGlobals();
  });

  it("are offered for the platform's own accounts that can sign in, never for an outside provider's", () => {
    const local = Object.fromEntries(USER_STATUSES.map((status) => [status, allowedSecurityActions({ status, user_source: 'LOCAL' })]));
    expect(local).toEqual({ INVITED: [], ACTIVE: ['resetMfa', 'endSessions'], DISABLED: ['resetMfa'], REVOKED: [] });
    for (const status of USER_STATUSES) expect(allowedSecurityActions({ status, user_source: 'EXTERNAL' })).toEqual([]);
  });

  it('are not shown to someone the matrix does not allow them', async () => {
    api({ ...ADMIN, roles: ['AUDITOR'] });
    await renderAs({ ...ADMIN, roles: ['AUDITOR'] }, RESEARCHER);
    expect(await screen.findByRole('button', { name: 'Disable Rob Researcher' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reset second factors/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /End sessions/ })).toBeNull();
  });

  it('reset only once confirmed, saying what happens, and tell the truth after', async () => {
    const calls = api(ADMIN);
    await renderAs(ADMIN, RESEARCHER);
    await userEvent.click(await screen.findByRole('button', { name: 'Reset second factors of Rob Researcher' }));
    const dialog = await screen.findByRole('tooltip');
    expect(within(dialog).getByText('Reset the second factors of Rob Researcher?')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Rob Researcher will set up a second factor again at their next sign-in; their passkeys, authenticator apps and recovery codes stop working. Their sessions end: each is signed out at its next request.',
    );
    expect(securityCalls(calls)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(securityCalls(calls)).toEqual([`POST /api/v1/users/mfa-reset/${RESEARCHER.id}/`]));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toMatchObject({ type: 'success', title: 'Second factors reset' });
    expect(toasts[0]?.description).toContain('Rob Researcher will set up a second factor again at their next sign-in.');
    expect(signOut).not.toHaveBeenCalled();
  });

  it('end sessions and say how many the API ended', async () => {
    const calls = api(ADMIN);
    await renderAs(ADMIN, RESEARCHER);
    await userEvent.click(await screen.findByRole('button', { name: 'End sessions of Rob Researcher' }));
    const dialog = await screen.findByRole('tooltip');
    expect(dialog).toHaveTextContent('Every browser and script signed in as Rob Researcher is signed out at its next request. Their second factors stay as they are.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(securityCalls(calls)).toEqual([`POST /api/v1/users/sessions-end/${RESEARCHER.id}/`]));
    await waitFor(() => expect(toasts).toEqual([{ type: 'success', title: 'Sessions ended', description: '2 sessions of Rob Researcher ended; each is signed out at its next request.' }]));
    expect(sessionsEndedText(0, 'Rob')).toEqual({ title: 'No sessions to end', description: 'Rob had no active session.' });
  });

  it('tell a refusal through the error catalogue, with no success message', async () => {
    api(ADMIN, (call) => (call.path.startsWith('/api/v1/users/mfa-reset/') ? { status: 404, body: { detail: 'No such user.' } } : undefined));
    await renderAs(ADMIN, RESEARCHER);
    await userEvent.click(await screen.findByRole('button', { name: 'Reset second factors of Rob Researcher' }));
    await userEvent.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(toasts[0]).toMatchObject({ type: 'error', title: 'User does not exist' });
  });

  it("on the administrator's own row (the API allows it) say this browser signs out, and sign it out", async () => {
    const calls = api(ADMIN);
    await renderAs(ADMIN, ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Reset second factors of your own account' }));
    const dialog = await screen.findByRole('tooltip');
    expect(dialog).toHaveTextContent('You will set up a second factor again at your next sign-in');
    expect(dialog).toHaveTextContent('Your sessions end: this browser signs out now, your others at their next request.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(signOut).toHaveBeenCalledWith({ callbackUrl: '/api/auth/signin' }));
    expect(securityCalls(calls)).toEqual([`POST /api/v1/users/mfa-reset/${ADMIN.id}/`]);
    expect(toasts).toEqual([]);
  });
});
