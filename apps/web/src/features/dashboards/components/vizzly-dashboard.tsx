import Vizzly from '@vizzly/dashboard';

/** Vizzly's identity callback: the workbench's tokens, or null when they cannot be had. */
export type VizzlyIdentity = () => Promise<{ dashboardAccessToken: string; dataAccessToken: string } | null>;

/** Vizzly's embedded dashboard (its own chunk: loaded by WorkbenchDashboards only when it has tokens). */
export default function VizzlyDashboard({ identity, queryEngineEndpoint }: { identity: VizzlyIdentity; queryEngineEndpoint?: string }) {
  return <Vizzly.Dashboard identity={identity} queryEngineEndpoint={queryEngineEndpoint} />;
}
