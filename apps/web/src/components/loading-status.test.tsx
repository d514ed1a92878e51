import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoadingStatus } from './loading-status';

describe('the loading status', () => {
  it('is a status region named by its label, padded or not', () => {
    const { rerender } = render(<LoadingStatus label="Loading users" />);
    expect(screen.getByRole('status', { name: 'Loading users' })).toHaveAttribute('aria-busy', 'true');
    rerender(<LoadingStatus label="Loading the audit log" padding={24} />);
    expect(screen.getByRole('status', { name: 'Loading the audit log' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading users' })).toBeNull();
  });
});
