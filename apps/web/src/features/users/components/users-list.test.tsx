import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser, fakeApi, renderWithStore, type RecordedCall } from '@/test-support/render';
import UsersList from './users-list';

const USERS = [
  aUser({ id: '11111111-1111-4111-8111-111111111111', email: 'ada@example.org', name: 'Ada Admin', roles: ['ADMIN'] }),
  aUser({ id: '22222222-2222-4222-8222-222222222222', email: 'nora@example.org', name: 'Nora Newcomer', status: 'INVITED', invitation_expired: true }),
  aUser({ id: '33333333-3333-4333-8333-333333333333', email: 'dan@example.org', name: 'Dan Disabled', status: 'DISABLED' }),
];

function answer(call: RecordedCall) {
  if (call.path === '/api/v1/users/') return { body: { users: USERS, total: 10_000, total_capped: true } };
  return { body: USERS.find((u) => call.path.includes(u.id)) ?? USERS[0] };
}

const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/api/v1/users/').map((c) => c.query.toString());

describe('the users list', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the first page of 15 with every filter at 'All', and shows a capped total", async () => {
    const calls = fakeApi(answer);
    renderWithStore(<UsersList />);
    expect(await screen.findByText('nora@example.org')).toBeInTheDocument();
    expect(listCalls(calls)).toEqual(['skip=0&limit=15']);
    expect(screen.getByText('10,000+ users')).toBeInTheDocument();
    for (const label of ['Status', 'User source']) expect(screen.getByRole('combobox', { name: label }).closest('.ant-select')).toHaveTextContent('All');
  });

  it('shows each state with the actions it allows; an expired invitation says so', async () => {
    fakeApi(answer);
    renderWithStore(<UsersList />);
    const nora = (await screen.findByText('nora@example.org')).closest('tr')!;
    expect(within(nora).getByText('Invitation expired')).toBeInTheDocument();
    expect(within(nora).getAllByRole('button').map((b) => b.textContent)).toEqual(['Nora Newcomer', 'Re-send', 'Revoke']);
    const dan = screen.getByText('dan@example.org').closest('tr')!;
    expect(within(dan).getByText('Disabled')).toBeInTheDocument();
    expect(within(dan).getAllByRole('button').map((b) => b.textContent)).toEqual(['Dan Disabled', 'Enable']);
  });

  it('searches and sorts on the server, back on the first page', async () => {
    const calls = fakeApi(answer);
    renderWithStore(<UsersList />);
    await screen.findByText('nora@example.org');
    const search = screen.getByRole('searchbox', { name: 'Search users by name or email' });
    fireEvent.change(search, { target: { value: 'nora' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('skip=0&limit=15&search=nora'));

    await userEvent.click(screen.getByRole('columnheader', { name: /Email/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('skip=0&limit=15&search=nora&order_by=email'));
  });

  it('refreshes the list after a change to a user', async () => {
    const calls = fakeApi(answer);
    renderWithStore(<UsersList />);
    const dan = (await screen.findByText('dan@example.org')).closest('tr')!;
    await userEvent.click(within(dan).getByRole('button', { name: 'Enable Dan Disabled' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /api/v1/users/enable/33333333-3333-4333-8333-333333333333/'));
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
  });

  it('opens the detail drawer of a user, read fresh from the API', async () => {
    const calls = fakeApi(answer);
    renderWithStore(<UsersList />);
    await userEvent.click(await screen.findByRole('button', { name: 'Details of Nora Newcomer' }));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Signs in with')).toBeInTheDocument();
    expect(within(drawer).getByText('Local account')).toBeInTheDocument();
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/v1/users/22222222-2222-4222-8222-222222222222/'));
  });
});
