import { z } from 'zod';
import { Timestamp } from './common';

/**
 * The tokens the data visualisation service (Vizzly) needs to show a workbench's dashboards, each
 * an ES256 JWT signed with the platform's key: the dashboard access token (Vizzly project, user
 * reference = the platform user id, scope) and the data access token (data sets, and secure
 * filters that restrict every data set to this workbench). Both expire at `expires_at`.
 */
export const VisualisationTokens = z
  .object({
    workbench_id: z.uuid(),
    dashboard_access_token: z.string(),
    data_access_token: z.string(),
    expires_at: Timestamp,
  })
  .meta({ id: 'VisualisationTokens' });
export type VisualisationTokens = z.infer<typeof VisualisationTokens>;
