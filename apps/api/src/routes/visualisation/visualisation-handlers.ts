import { isWorkbenchMember } from '@hdp/contract';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { recordAuditEvent } from '../../audit/audit-trail';
import { notFound, serviceUnavailable } from '../../http/api-error';
import { VIZZLY_REQUIRED_VARIABLES } from '../../config';
import { signVisualisationTokens } from '../../visualisation/vizzly-tokens';
import { workbenchMembershipOf } from '../../visualisation/workbench-membership';

export const VISUALISATION_NOT_CONFIGURED = `Dashboards are not configured on this platform: an administrator sets ${VIZZLY_REQUIRED_VARIABLES.join(', ')} on the API (see docs/configuration.md).`;
const WORKBENCH_NOT_FOUND = 'Workbench not found.';

export const visualisationHandlers: RouteHandlers = {
  /**
   * Tokens for the workbench's dashboards, for its members only: anyone else is told the
   * workbench does not exist, and the attempt is audited as a denial. Every issue is audited.
   */
  getVisualisationToken: async (request, reply) => {
    const { config, db } = request.server.services;
    if (!config.vizzly) throw serviceUnavailable(VISUALISATION_NOT_CONFIGURED);
    const actor = currentUser(request);
    const workbenchId = request.params.projectId;
    const membership = await workbenchMembershipOf(db, workbenchId, actor.id);
    if (!isWorkbenchMember(actor, membership.role)) {
      if (membership.exists) {
        await recordAuditEvent(db, auditContextOf(request), {
          eventType: 'ACCESS_DENIED',
          outcome: 'DENIED',
          message: `${actor.email} was denied dashboard tokens for workbench ${workbenchId}`,
          resourceType: 'workbench',
          resourceId: workbenchId,
        });
      }
      throw notFound(WORKBENCH_NOT_FOUND);
    }
    const canEdit = membership.role === 'OWNER' || membership.role === 'WRITER';
    const tokens = await signVisualisationTokens(config.vizzly, { userId: actor.id, workbenchId, canEdit });
    // Audited before the tokens leave: a token nobody recorded is never handed out.
    await recordAuditEvent(db, auditContextOf(request), {
      eventType: 'VISUALISATION_TOKEN_ISSUED',
      outcome: 'SUCCESS',
      message: `${actor.email} was issued dashboard tokens for workbench ${workbenchId}`,
      resourceType: 'workbench',
      resourceId: workbenchId,
      details: {
        scope: canEdit ? 'read_write' : 'read',
        data_set_ids: config.vizzly.dataSetIds,
        expires_at: tokens.expiresAt.toISOString(),
      },
    });
    reply.header('cache-control', 'no-store');
    return {
      workbench_id: workbenchId,
      dashboard_access_token: tokens.dashboardAccessToken,
      data_access_token: tokens.dataAccessToken,
      expires_at: tokens.expiresAt.toISOString(),
    };
  },
};
