import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setNotifier, type Toast } from '@/lib/errors/notifier';
import { fakeApi, renderWithStore } from '@/test-support/render';
import type { VizzlyIdentity } from './vizzly-dashboard';
import { HOW_TO_ENABLE, NOT_AVAILABLE, WorkbenchDashboards } from './workbench-dashboards';

const WORKBENCH = '3f1d3c1e-8d2a-4c55-9a39-6a3c0d1b2e7f';
const TOKENS = {
  workbench_id: WORKBENCH,
  dashboard_access_token: 'dashboard.token.1',
  data_access_token: 'data.token.1',
  expires_at: '2026-11-23T20:10:00.000Z',
};

// Vizzly's dashboard needs its service; in its place a stand-in that shows what it was given.
let givenIdentity: VizzlyIdentity | null = null;
vi.mock('next/dynamic', () => ({
  default: () =>
    function VizzlyStandIn({ identity }: { identity: VizzlyIdentity }) {
      givenIdentity = identity;
      return <div data-testid="vizzly-dashboard" />;
    },
}));

afterEach(() => {
  setNotifier(null);
  givenIdentity = null;
  vi.unstubAllGlobals();
});

describe('the Dashboards tab', () => {
  it('tells a researcher dashboards are not available, without setting names', async () => {
    fakeApi(() => ({ status: 503, body: { detail: 'Dashboards are not configured on this platform.' } }));
    renderWithStore(<WorkbenchDashboards workbenchId={WORKBENCH} />);
    expect(await screen.findByText('Dashboards are not enabled on this platform')).toBeInTheDocument();
    expect(screen.getByText(NOT_AVAILABLE)).toBeInTheDocument();
    expect(screen.queryByText(/VIZZLY_/)).not.toBeInTheDocument();
    expect(screen.queryByText(/The server says/)).not.toBeInTheDocument();
  });

  it('tells an administrator how to enable dashboards when the service is not configured, without a toast', async () => {
    const toasts: Toast[] = [];
    setNotifier({ show: (toast) => toasts.push(toast) });
    const calls = fakeApi(() => ({ status: 503, body: { detail: 'Dashboards are not configured on this platform.' } }));
    renderWithStore(<WorkbenchDashboards workbenchId={WORKBENCH} administrator />);
    expect(await screen.findByText('Dashboards are not enabled on this platform')).toBeInTheDocument();
    expect(screen.getByText(HOW_TO_ENABLE)).toBeInTheDocument();
    expect(screen.getByText('The server says: Dashboards are not configured on this platform.')).toBeInTheDocument();
    expect(screen.queryByTestId('vizzly-dashboard')).not.toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /api/v1/vizzly/tokens/${WORKBENCH}/`]);
    expect(toasts).toEqual([]);
  });

  it('says the workbench is not there for a non-member (404)', async () => {
    fakeApi(() => ({ status: 404, body: { detail: 'Workbench not found.' } }));
    renderWithStore(<WorkbenchDashboards workbenchId={WORKBENCH} />);
    expect(await screen.findByText('Workbench not found')).toBeInTheDocument();
    expect(screen.queryByTestId('vizzly-dashboard')).not.toBeInTheDocument();
  });

  it("shows Vizzly's dashboard with a token callback that asks for fresh tokens each time", async () => {
    let issued = 0;
    const calls = fakeApi(() => {
      issued += 1;
      return { body: { ...TOKENS, dashboard_access_token: `dashboard.token.${issued}`, data_access_token: `data.token.${issued}` } };
    });
    renderWithStore(<WorkbenchDashboards workbenchId={WORKBENCH} />);
    expect(await screen.findByTestId('vizzly-dashboard')).toBeInTheDocument();
    let first: unknown;
    let second: unknown;
    await act(async () => {
      first = await givenIdentity!();
      second = await givenIdentity!();
    });
    expect(first).toEqual({ dashboardAccessToken: 'dashboard.token.2', dataAccessToken: 'data.token.2' });
    expect(second).toEqual({ dashboardAccessToken: 'dashboard.token.3', dataAccessToken: 'data.token.3' });
    expect(calls).toHaveLength(3);
  });

  it('gives Vizzly no tokens once the API refuses them', async () => {
    let refuse = false;
    fakeApi(() => (refuse ? { status: 404, body: { detail: 'Workbench not found.' } } : { body: TOKENS }));
    renderWithStore(<WorkbenchDashboards workbenchId={WORKBENCH} />);
    await screen.findByTestId('vizzly-dashboard');
    refuse = true;
    let answer: unknown = 'unset';
    await act(async () => {
      answer = await givenIdentity!();
    });
    expect(answer).toBeNull();
  });
});
