import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { fakeApi, renderWithStore } from '@/test-support/render';
import { CohortPage } from './cohort-page';

vi.mock('next/dynamic', () => ({ default: () => () => <div data-testid="cohort-detail" /> }));

afterEach(() => {
  setNotifier(null);
  vi.unstubAllGlobals();
});

describe('the cohort page', () => {
  it('says a cohort the API does not know (or will not show) was not found, without a toast', async () => {
    const toasts: Toast[] = [];
    setNotifier({ show: (toast) => toasts.push(toast) });
    fakeApi(() => ({ status: 404, body: { detail: 'Cohort does not exist.' } }));
    renderWithStore(<CohortPage cohortId="6f1c2a52-8f0e-4a43-9d7c-1b2e3f4a5b6c" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Cohort not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All cohorts' })).toHaveAttribute('href', '/cohorts');
    expect(toasts).toEqual([]);
  });

  it('waits for the id before asking for the cohort', () => {
    const calls = fakeApi(() => ({ body: {} }));
    renderWithStore(<CohortPage cohortId="" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Cohort' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
