import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USER_STATUSES } from '@hdp/contract/user-lifecycle';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import { getMeApi } from '../api/get-me';
import { allowedActions, UserRowActions } from './user-row-actions';

describe('the row actions', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('follow the lifecycle table', () => {
    const byStatus = Object.fromEntries(USER_STATUSES.map((status) => [status, allowedActions({ status })]));
    expect(byStatus).toEqual({
      INVITED: ['resendInvitation', 'revoke'],
      ACTIVE: ['disable'],
      DISABLED: ['enable'],
      REVOKED: [],
    });
  });

  it('show only what the state allows', () => {
    fakeApi(() => ({ body: {} }));
    renderWithStore(<UserRowActions user={aUser({ status: 'INVITED' })} />);
    expect(screen.getByRole('button', { name: 'Re-send Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Disable/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Enable/ })).toBeNull();
  });

  it("grey out Disable on the administrator's own row, with the reason", async () => {
    const me = aUser({ roles: ['ADMIN'] });
    const calls = fakeApi(() => ({ body: { ...me, permissions: [] } }));
    const { store } = renderWithStore(<UserRowActions user={me} />);
    await store.dispatch(getMeApi.endpoints.getMe.initiate());
    const button = await screen.findByRole('button', { name: 'Disable Ada Lovelace: You cannot disable your own account.' });
    expect(button).toBeDisabled();
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/users/me/']);
  });

  it('ask before disabling, and call the API only when confirmed', async () => {
    const user = aUser();
    const calls = fakeApi(() => ({ body: { ...user, status: 'DISABLED' } }));
    renderWithStore(<UserRowActions user={user} />);
    await userEvent.click(screen.getByRole('button', { name: 'Disable Ada Lovelace' }));
    expect(await screen.findByText('Disable this user?')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /api/v1/users/disable/${user.id}/`]));
  });

  it('re-send the invitation to the user id and email', async () => {
    const user = aUser({ status: 'INVITED', invitation_expired: true });
    const calls = fakeApi(() => ({ body: user }));
    renderWithStore(<UserRowActions user={user} />);
    await userEvent.click(screen.getByRole('button', { name: 'Re-send Ada Lovelace' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Re-send' }));
    await waitFor(() => expect(calls.map((c) => c.path)).toEqual([`/api/v1/users/invitation/${user.id}/ada%40example.org/`]));
  });
});
