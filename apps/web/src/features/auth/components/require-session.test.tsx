import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RequireSession } from './require-session';

const useSession = vi.fn();
vi.mock('next-auth/react', () => ({ useSession: (options: unknown) => useSession(options) }));

describe('RequireSession', () => {
  beforeEach(() => useSession.mockReset());

  it('asks next-auth for a required session and shows only a spinner while it loads', () => {
    useSession.mockReturnValue({ data: null, status: 'loading' });
    render(<RequireSession>secret content</RequireSession>);
    expect(useSession).toHaveBeenCalledWith({ required: true });
    expect(screen.queryByText('secret content')).toBeNull();
    expect(screen.getByRole('status', { name: 'Checking your session' })).toBeInTheDocument();
  });

  it('renders nothing of the page without a session', () => {
    useSession.mockReturnValue({ data: null, status: 'unauthenticated' });
    render(<RequireSession>secret content</RequireSession>);
    expect(screen.queryByText('secret content')).toBeNull();
  });

  it('holds the page back when the session could not be renewed', () => {
    useSession.mockReturnValue({ data: { idToken: undefined, error: 'RefreshTokenError', expires: '' }, status: 'authenticated' });
    render(<RequireSession>secret content</RequireSession>);
    expect(screen.queryByText('secret content')).toBeNull();
  });

  it('renders the page with a live session', () => {
    useSession.mockReturnValue({ data: { idToken: 'token', expires: '' }, status: 'authenticated' });
    render(<RequireSession>secret content</RequireSession>);
    expect(screen.getByText('secret content')).toBeInTheDocument();
  });
});
