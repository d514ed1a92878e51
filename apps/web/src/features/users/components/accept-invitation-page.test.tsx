import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import { EXTERNAL_SIGN_IN_KEY, INVITATION_TOKEN_KEY } from '../invitation-token';
import { AcceptInvitationPage, INCOMPLETE_LINK, NO_ORGANISATION_SIGN_IN } from './accept-invitation-page';

const useSession = vi.fn();
const signIn = vi.fn();
const getProviders = vi.fn();
vi.mock('next-auth/react', () => ({
  useSession: () => useSession(),
  signIn: (...args: unknown[]) => signIn(...args),
  getProviders: () => getProviders(),
}));

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const INVALID = 'This invitation is no longer valid. Ask an administrator to send a new one.';
const info = (userSource: 'LOCAL' | 'EXTERNAL') => ({ email: 'nora@example.org', name: 'Nora Newcomer', user_source: userSource, expires_at: '2026-03-01T00:00:00.000Z' });

/** Types a whole value at once: typing key by key is slow and adds nothing here. */
function fill(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

function openLink(hash: string) {
  window.history.replaceState(null, '', `/accept-invitation${hash}`);
}

describe('the accept-invitation page', { timeout: 20_000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    useSession.mockReturnValue({ data: null, status: 'unauthenticated' });
    signIn.mockReset();
    getProviders.mockResolvedValue({ credentials: { id: 'credentials' }, oidc: { id: 'oidc' } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads the token from the fragment, removes it from the address bar and shows whose invitation it is', async () => {
    const calls = fakeApi(() => ({ body: info('LOCAL') }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText('Nora Newcomer')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/v1/invitations/inspect/', body: { token: TOKEN } });
    expect(window.location.hash).toBe('');
    expect(window.sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBe(TOKEN);
  });

  it("shows the API's reason when the link is no longer valid", async () => {
    fakeApi(() => ({ status: 404, body: { detail: INVALID } }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText(INVALID)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('says so when the link has no token', async () => {
    fakeApi(() => ({ body: {} }));
    openLink('');
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText(INCOMPLETE_LINK)).toBeInTheDocument();
  });

  it("opened without a token, does not show the invitation last opened in this tab", async () => {
    const calls = fakeApi(() => ({ body: info('LOCAL') }));
    window.sessionStorage.setItem(INVITATION_TOKEN_KEY, TOKEN);
    openLink('');
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText(INCOMPLETE_LINK)).toBeInTheDocument();
    expect(screen.queryByText('Nora Newcomer')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('checks the password length and the confirmation before accepting a local invitation', async () => {
    const calls = fakeApi(({ path }) => ({ body: path.endsWith('/inspect/') ? info('LOCAL') : aUser({ email: 'nora@example.org' }) }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    const password = await screen.findByLabelText('New password');
    fill(password, 'too short');
    fill(screen.getByLabelText('Confirm password'), 'too short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    expect(await screen.findByText('Use at least 12 characters.')).toBeInTheDocument();

    fill(password, 'purple otter glides home');
    fill(screen.getByLabelText('Confirm password'), 'purple otter glides hom');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();

    fill(screen.getByLabelText('Confirm password'), 'purple otter glides home');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    expect(await screen.findByText('Your account is ready.')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ path: '/api/v1/invitations/accept/', body: { token: TOKEN, password: 'purple otter glides home' } });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/api/auth/signin?callbackUrl=%2F');
    expect(window.sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBeNull();
  });

  it('rates the password with the lazily loaded estimator', async () => {
    fakeApi(() => ({ body: info('LOCAL') }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    const password = await screen.findByLabelText('New password');
    const meter = screen.getByRole('meter', { name: 'Password strength' });
    fill(password, 'password1234');
    await waitFor(() => expect(meter).toHaveAttribute('aria-valuetext', 'Weak'), { timeout: 15_000 });
    fill(password, 'purple otter glides home');
    await waitFor(() => expect(meter).toHaveAttribute('aria-valuetext', 'Strong'));
    expect(screen.getByText('Strength: Strong. This password will be accepted.')).toBeInTheDocument();
  });

  it("shows the API's refusal of a password beside the form", async () => {
    fakeApi(({ path }) =>
      path.endsWith('/inspect/') ? { body: info('LOCAL') } : { status: 400, body: { detail: 'password: must be at most 128 characters' } },
    );
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    fill(await screen.findByLabelText('New password'), 'velvet compass drizzle');
    fill(screen.getByLabelText('Confirm password'), 'velvet compass drizzle');
    await userEvent.click(screen.getByRole('button', { name: 'Set password and activate account' }));
    expect(await screen.findByText('password: must be at most 128 characters')).toBeInTheDocument();
  });

  it('signs an external user in with the identity provider, keeping the token for the way back', async () => {
    fakeApi(() => ({ body: info('EXTERNAL') }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with your organisation to accept' }));
    expect(signIn).toHaveBeenCalledWith('oidc', { callbackUrl: '/accept-invitation' });
    expect(window.sessionStorage.getItem(EXTERNAL_SIGN_IN_KEY)).toBe(TOKEN);
  });

  it('says what to do when an external invitation meets a platform without organisation sign-in', async () => {
    getProviders.mockResolvedValue({ credentials: { id: 'credentials' } });
    fakeApi(() => ({ body: info('EXTERNAL') }));
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText(NO_ORGANISATION_SIGN_IN)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with your organisation to accept' })).toBeNull();
  });

  it("back from the identity provider, accepts with the provider's id token", async () => {
    const calls = fakeApi(({ path }) => ({ body: path.endsWith('/inspect/') ? info('EXTERNAL') : aUser({ user_source: 'EXTERNAL' }) }));
    window.sessionStorage.setItem(INVITATION_TOKEN_KEY, TOKEN);
    window.sessionStorage.setItem(EXTERNAL_SIGN_IN_KEY, TOKEN);
    useSession.mockReturnValue({ data: { idToken: 'external-id-token', expires: '' }, status: 'authenticated' });
    openLink('');
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByText('Your account is ready.')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ path: '/api/v1/invitations/accept/', body: { token: TOKEN, id_token: 'external-id-token' } });
    expect(screen.getByRole('link', { name: /Continue to/ })).toHaveAttribute('href', '/');
  });

  it('does not accept with the session of someone already signed in who did not go through the provider', async () => {
    const calls = fakeApi(() => ({ body: info('EXTERNAL') }));
    useSession.mockReturnValue({ data: { idToken: 'admin-token', expires: '' }, status: 'authenticated' });
    openLink(`#token=${TOKEN}`);
    renderWithStore(<AcceptInvitationPage />);
    expect(await screen.findByRole('button', { name: 'Sign in with your organisation to accept' })).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/invitations/inspect/']);
  });
});
