import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import mitt from 'next/dist/shared/lib/mitt';
import { RouteChangeSpinner } from './route-change-spinner';

const events = mitt();
vi.mock('next/router', () => ({ useRouter: () => ({ events }) }));

describe('the route-change spinner', () => {
  it.each(['routeChangeComplete', 'routeChangeError'])('shows and locks scrolling until %s', (endEvent) => {
    render(<RouteChangeSpinner />);
    expect(screen.queryByTestId('route-change-spinner')).toBeNull();

    act(() => events.emit('routeChangeStart', '/cohorts', { shallow: false }));
    expect(screen.getByTestId('route-change-spinner')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading page' })).toBeInTheDocument();
    expect(document.body.style.overflow).toBe('hidden');

    act(() => events.emit(endEvent, '/cohorts', { shallow: false }));
    expect(screen.queryByTestId('route-change-spinner')).toBeNull();
    expect(document.body.style.overflow).toBe('');
  });

  it('ignores shallow changes', () => {
    render(<RouteChangeSpinner />);
    act(() => events.emit('routeChangeStart', '/users?page=2', { shallow: true }));
    expect(screen.queryByTestId('route-change-spinner')).toBeNull();
    expect(document.body.style.overflow).toBe('');
  });
});
