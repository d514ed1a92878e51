import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadFailure } from './load-failure';
import { tableLocale } from './table-states';

describe('a failed load', () => {
  it('says what failed and why, in the words of the toasts, and retries', async () => {
    const retry = vi.fn();
    render(<LoadFailure title="The users could not be loaded." error={{ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }} onRetry={retry} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The users could not be loaded.');
    expect(alert).toHaveTextContent('Unable to reach the server. Check your network connection and try again in a moment.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it.each([
    [{ status: 502, data: { detail: 'The API is not reachable.' } }, 'Unable to reach the server. Check your network connection'],
    [{ status: 504 }, 'Unable to reach the server.'],
    [{ status: 503, data: { detail: 'Down for maintenance until 10:00.' } }, 'Unable to reach the server. Down for maintenance until 10:00.'],
    [{ status: 'TIMEOUT_ERROR' }, 'The server took too long to answer.'],
    [{ status: 500, data: { detail: 'boom' } }, 'Something went wrong on the server. Please try again.'],
  ])('words the reason of %j', (error, text) => {
    render(<LoadFailure title="x" error={error} onRetry={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent(text);
  });
});

describe('the table states', () => {
  const base = { failureTitle: 'The users could not be loaded.', onRetry: () => undefined, empty: 'No users yet.' };

  it('shows nothing under the spinner while loading, the failure when it failed, the empty text only when loaded empty', () => {
    const { rerender } = render(<>{tableLocale({ ...base, loading: true, error: undefined }).emptyText}</>);
    expect(screen.queryByText('No users yet.')).toBeNull();
    rerender(<>{tableLocale({ ...base, loading: false, error: { status: 'FETCH_ERROR' } }).emptyText}</>);
    expect(screen.getByRole('alert')).toHaveTextContent('The users could not be loaded.');
    expect(screen.queryByText('No users yet.')).toBeNull();
    rerender(<>{tableLocale({ ...base, loading: false, error: undefined }).emptyText}</>);
    expect(screen.getByText('No users yet.')).toBeInTheDocument();
  });
});
