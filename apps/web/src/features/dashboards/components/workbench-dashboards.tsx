import { useCallback, useEffect, useState } from 'react';
import dynamic from 'next/dynamic';
import { Alert } from 'antd';
import { LoadingStatus } from '@/components/loading-status';
import { detailOf } from '@/lib/errors/api-error-handler';
import { useLazyGetVisualisationTokenQuery } from '../api/get-visualisation-token';
import type { VizzlyIdentity } from './vizzly-dashboard';

// Vizzly's dashboard (several hundred kB) loads only once the tab has tokens to show it with.
const VizzlyDashboard = dynamic(() => import('./vizzly-dashboard'), {
  ssr: false,
  loading: () => <LoadingStatus label="Loading dashboards" padding={48} />,
});

/** What everyone else is told when dashboards are not set up: no setting names, which only an administrator can act on. */
export const NOT_AVAILABLE = 'Dashboards are not available on this platform yet. Ask your administrator if you need them.';

/** Shown to administrators when the API answers 503: what they set to turn dashboards on. */
export const HOW_TO_ENABLE =
  'An administrator enables dashboards by registering the platform with Vizzly and setting VIZZLY_PRIVATE_KEY, VIZZLY_PROJECT_ID and VIZZLY_DATA_SET_IDS on the API (see docs/configuration.md).';

type TabState =
  | { kind: 'checking' }
  | { kind: 'ready' }
  | { kind: 'not-configured'; detail?: string }
  | { kind: 'not-found' }
  | { kind: 'failed' };

/**
 * A workbench's Dashboards tab: Vizzly's embedded dashboards, whose token callback asks the API
 * for fresh tokens of this workbench each time Vizzly needs them. The first answer decides what
 * the tab shows: the dashboards, how to enable them (503), or that the workbench is not there (404).
 */
export function WorkbenchDashboards({ workbenchId, administrator = false }: { workbenchId: string; administrator?: boolean }) {
  const [fetchTokens] = useLazyGetVisualisationTokenQuery();
  const [state, setState] = useState<TabState>({ kind: 'checking' });

  useEffect(() => {
    if (!workbenchId) return;
    let current = true;
    setState({ kind: 'checking' });
    fetchTokens(workbenchId, false)
      .unwrap()
      .then(() => current && setState({ kind: 'ready' }))
      .catch((error: { status?: number | string; data?: unknown }) => {
        if (!current) return;
        if (error.status === 503) setState({ kind: 'not-configured', detail: detailOf(error.data) });
        else if (error.status === 404) setState({ kind: 'not-found' });
        else setState({ kind: 'failed' });
      });
    return () => {
      current = false;
    };
  }, [fetchTokens, workbenchId]);

  const identity = useCallback<VizzlyIdentity>(async () => {
    try {
      const tokens = await fetchTokens(workbenchId, false).unwrap();
      return { dashboardAccessToken: tokens.dashboard_access_token, dataAccessToken: tokens.data_access_token };
    } catch {
      // Vizzly reads null as "no access" and says so in its own frame.
      return null;
    }
  }, [fetchTokens, workbenchId]);

  switch (state.kind) {
    case 'checking':
      return <LoadingStatus label="Checking dashboards" padding={48} />;
    case 'not-configured':
      return (
        <Alert
          type="info"
          showIcon
          title="Dashboards are not enabled on this platform"
          description={
            administrator ? (
              <>
                <p>{HOW_TO_ENABLE}</p>
                {state.detail && state.detail !== HOW_TO_ENABLE ? <p>The server says: {state.detail}</p> : null}
              </>
            ) : (
              <p>{NOT_AVAILABLE}</p>
            )
          }
        />
      );
    case 'not-found':
      return <Alert type="warning" showIcon title="Workbench not found" description="Only the workbench's members can see its dashboards." />;
    case 'failed':
      return <Alert type="error" showIcon title="Dashboards could not be loaded" description="Please try again in a moment." />;
    case 'ready':
      return <VizzlyDashboard identity={identity} queryEngineEndpoint={process.env.NEXT_PUBLIC_VIZZLY_QUERY_ENGINE_ENDPOINT || undefined} />;
  }
}
