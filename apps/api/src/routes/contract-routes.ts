import type { FastifyInstance, RouteOptions } from 'fastify';
import multipart from '@fastify/multipart';
import { ErrorBody, LIMITS, ROUTES, type RouteContract, type RouteId } from '@hdp/contract';
import { notImplemented } from '../http/api-error';
import { registerMultipartGuard } from '../http/input-guard';
import type { RouteHandlers } from '../http/route-types';
import { authHandlers } from './auth/auth-handlers';
import { auditHandlers } from './audit/audit-handlers';
import { invitationHandlers } from './auth/invitation-handlers';
import { documentHandlers } from './documents/document-handlers';
import { userHandlers } from './users/user-handlers';
import { dataExplorerHandlers } from './data-explorer/data-explorer-handlers';
import { queryHandlers } from './queries/query-handlers';
import { cohortHandlers } from './cohorts/cohort-handlers';
import { conceptSetHandlers } from './concept-sets/concept-set-handlers';
import { visualisationHandlers } from './visualisation/visualisation-handlers';
import { workbenchHandlers } from './workbenches/workbench-handlers';
import { notebookHandlers } from './notebooks/notebook-handlers';
import { outputHandlers } from './outputs/output-handlers';
import { accountHandlers } from './account/account-handlers';

/** Every implemented handler, by the contract's route id. */
const HANDLERS: RouteHandlers = {
  ...authHandlers,
  ...invitationHandlers,
  ...userHandlers,
  ...auditHandlers,
  ...documentHandlers,
  ...dataExplorerHandlers,
  ...queryHandlers,
  ...cohortHandlers,
  ...conceptSetHandlers,
  ...visualisationHandlers,
  ...workbenchHandlers,
  ...notebookHandlers,
  ...outputHandlers,
  ...accountHandlers,
};

/** `/api/v1/users/{userId}/` → `/api/v1/users/:userId/` */
export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 414, 415, 422, 429, 500, 502, 503] as const;

/**
 * Registers every route of the contract. A route whose handler is not written yet still
 * authenticates and authorises, then answers 501, so the contract is served whole from the start.
 *
 * Routes that take a multipart body get the multipart parser in a context of their own: its hooks
 * (two per request, to clean up spooled files) then cost nothing on every other route, and no other
 * route accepts a multipart body.
 */
export function registerContractRoutes(app: FastifyInstance): void {
  const routes = Object.entries(ROUTES) as [RouteId, RouteContract][];
  for (const [id, route] of routes) if (route.raw !== 'multipart-body') registerRoute(app, id, route);
  void app.register(async (uploads) => {
    // One file per upload, capped: past the cap the stream is cut and the upload refused (413).
    await uploads.register(multipart, { limits: { fileSize: LIMITS.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
    registerMultipartGuard(uploads);
    for (const [id, route] of routes) if (route.raw === 'multipart-body') registerRoute(uploads, id, route);
  });
}

function registerRoute(app: FastifyInstance, id: RouteId, route: RouteContract): void {
  const handler = HANDLERS[id] as RouteOptions['handler'] | undefined;
  const errorResponses = Object.fromEntries(ERROR_STATUSES.map((status) => [status, ErrorBody]));
  app.route({
    method: route.method,
    url: toFastifyPath(route.path),
    config: { access: route.access },
    schema: {
      operationId: id,
      summary: route.summary,
      tags: [route.tag],
      ...(route.params && { params: route.params }),
      ...(route.querystring && { querystring: route.querystring }),
      ...(route.body && { body: route.body }),
      ...('public' in route.access ? {} : { security: [{ bearerAuth: [] }] }),
      // A route's own responses may include a documented 418 (saved with errors), which has a body of its own.
      response: { ...(route.responses ?? {}), ...errorResponses, ...(handler ? {} : { 501: ErrorBody }) },
    },
    handler:
      handler ??
      (async () => {
        throw notImplemented(`${route.method} ${route.path} is part of the API contract but is not implemented yet.`);
      }),
  });
}
