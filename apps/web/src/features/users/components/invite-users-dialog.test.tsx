import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aUser, fakeApi, renderWithStore } from '@/test-support/render';
import InviteUsersDialog from './invite-users-dialog';

// The dialog asks next-auth which sign-in providers exist: here, organisation sign-in is set up.
vi.mock('next-auth/react', async (importOriginal) => ({
  ...(await importOriginal<typeof import('next-auth/react')>()),
  getProviders: async () => ({ credentials: { id: 'credentials' }, oidc: { id: 'oidc' } }),
}));

describe('the invite dialog', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('invites several addresses with their roles and shows the outcome of each', async () => {
    const calls = fakeApi(() => ({
      status: 201,
      body: {
        results: [
          { email: 'nora@example.org', outcome: 'INVITED', detail: null, user: aUser({ status: 'INVITED' }), email_sent: true },
          { email: 'ada@example.org', outcome: 'ALREADY_EXISTS', detail: 'A user with this email already exists (ACTIVE).', user: null, email_sent: false },
          { email: 'nora@example.org', outcome: 'DUPLICATE_IN_REQUEST', detail: 'This address is listed more than once.', user: null, email_sent: false },
        ],
      },
    }));
    renderWithStore(<InviteUsersDialog open onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Email addresses'), { target: { value: 'Nora Newcomer <nora@example.org>\nada@example.org, nora@example.org' } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Auditor' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send invitations' }));

    const results = await screen.findByRole('table');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/users/',
      body: {
        invitations: [
          { email: 'nora@example.org', name: 'Nora Newcomer', roles: ['RESEARCHER', 'AUDITOR'], user_source: 'LOCAL' },
          { email: 'ada@example.org', roles: ['RESEARCHER', 'AUDITOR'], user_source: 'LOCAL' },
          { email: 'nora@example.org', roles: ['RESEARCHER', 'AUDITOR'], user_source: 'LOCAL' },
        ],
      },
    });
    expect(screen.getByText('1 of 3 addresses invited.')).toBeInTheDocument();
    expect(within(results).getByText('Invited')).toBeInTheDocument();
    expect(within(results).getByText('Already exists')).toBeInTheDocument();
    expect(within(results).getByText('A user with this email already exists (ACTIVE).')).toBeInTheDocument();
    expect(within(results).getByText('Listed twice')).toBeInTheDocument();
  });

  it('refuses entries that are not addresses before calling the API', async () => {
    const calls = fakeApi(() => ({ body: {} }));
    renderWithStore(<InviteUsersDialog open onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Email addresses'), { target: { value: 'nora@example.org\nnot an address' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('Not an email address: not an address')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('asks for at least one role', async () => {
    const calls = fakeApi(() => ({ body: {} }));
    renderWithStore(<InviteUsersDialog open onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Email addresses'), { target: { value: 'nora@example.org' } });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Researcher' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('Give at least one role.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the API's refusal in the dialog when nobody could be invited", async () => {
    fakeApi(() => ({ status: 409, body: { detail: 'ada@example.org: A user with this email already exists (ACTIVE).' } }));
    renderWithStore(<InviteUsersDialog open onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Email addresses'), { target: { value: 'ada@example.org' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send invitations' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('ada@example.org: A user with this email already exists (ACTIVE).'));
  });
});
