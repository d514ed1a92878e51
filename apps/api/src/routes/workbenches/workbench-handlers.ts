import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasRole, type WorkbenchSubmittedWithErrors } from '@hdp/contract';
import { auditContextOf } from '../../http/audit-context';
import { notFound } from '../../http/api-error';
import { currentUser, type RouteHandlers, type RouteRequest } from '../../http/route-types';
import {
  createWorkbench,
  deleteWorkbench,
  loadVisibleWorkbench,
  updateWorkbench,
  workbenchDetail,
  type WorkbenchChangeOutcome,
} from '../../workbenches/workbench-commands';
import { presentWorkbenchSummary } from '../../workbenches/workbench-presenter';
import { workbenchRepository } from '../../workbenches/workbench-repository';

/** The answer to a create or update: the workbench, or 418 with it and what was refused. */
async function answerChange(request: RouteRequest<'createWorkbench' | 'updateWorkbench'>, reply: FastifyReply, outcome: WorkbenchChangeOutcome, okStatus: 200 | 201) {
  const { services } = request.server;
  const actor = currentUser(request);
  const myRole = (await workbenchRepository.memberRole(services.db, outcome.workbenchId, actor.id)) ?? null;
  const workbench = await workbenchDetail(services, outcome.workbenchId, myRole);
  if (outcome.refused.length === 0) return reply.code(okStatus).send(workbench);
  const body: WorkbenchSubmittedWithErrors = {
    detail: `The workbench was saved, but ${outcome.refused.length === 1 ? 'one part was' : `${outcome.refused.length} parts were`} not applied: ${outcome.refused
      .map((r) => `${r.kind} ${r.id}: ${r.reason}`)
      .join('; ')}. Review the data and user inclusions and submit again.`,
    workbench,
    refused: outcome.refused,
  };
  return reply.code(418).send(body);
}

/** The catalogue is per deployment; the path names the workbench so that only its members read it. */
async function visible(request: FastifyRequest<{ Params: { workbenchId: string } }>) {
  await loadVisibleWorkbench(request.server.services, currentUser(request), request.params.workbenchId, auditContextOf(request));
}

function knownZone(request: RouteRequest<'listMachineTypes' | 'listAcceleratorTypes'>): string {
  const { zone } = request.params;
  if (!request.server.services.computeCatalogue.hasZone(zone)) throw notFound(`zone: there is no zone named "${zone}".`);
  return zone;
}

export const workbenchHandlers: RouteHandlers = {
  listWorkbenches: async (request) => {
    const actor = currentUser(request);
    const { rows, ...total } = await workbenchRepository.list(request.server.services.db, {
      // Members see theirs; an ADMIN sees every workbench.
      memberId: hasRole(actor, 'ADMIN') ? undefined : actor.id,
      viewerId: actor.id,
      search: request.query.search || undefined,
      skip: request.query.skip,
      limit: request.query.limit,
    });
    return { workbenches: rows.map(presentWorkbenchSummary), ...total };
  },

  createWorkbench: async (request, reply) => {
    const outcome = await createWorkbench(request.server.services, currentUser(request), request.body, auditContextOf(request));
    return answerChange(request, reply, outcome, 201);
  },

  getWorkbench: async (request) => {
    const { services } = request.server;
    const { workbench, myRole } = await loadVisibleWorkbench(services, currentUser(request), request.params.workbenchId, auditContextOf(request));
    return workbenchDetail(services, workbench.id, myRole);
  },

  updateWorkbench: async (request, reply) => {
    const outcome = await updateWorkbench(request.server.services, currentUser(request), request.params.workbenchId, request.body, auditContextOf(request));
    return answerChange(request, reply, outcome, 200);
  },

  deleteWorkbench: async (request, reply) => {
    await deleteWorkbench(request.server.services, currentUser(request), request.params.workbenchId, auditContextOf(request));
    return reply.code(204).send();
  },

  listWorkbenchZones: async (request) => {
    await visible(request);
    return { zones: request.server.services.computeCatalogue.zones() };
  },

  listMachineTypes: async (request) => {
    await visible(request);
    return { machine_types: request.server.services.computeCatalogue.machineTypes(knownZone(request)) };
  },

  listAcceleratorTypes: async (request) => {
    await visible(request);
    return { accelerator_types: request.server.services.computeCatalogue.acceleratorTypes(knownZone(request)) };
  },

  listEnvironments: async (request) => {
    await visible(request);
    return { environments: request.server.services.computeCatalogue.environments() };
  },
};
