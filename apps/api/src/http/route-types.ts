import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ROUTES, RouteAccess, RouteId } from '@hdp/contract';
import type { AppServices } from '../app-services';
import type { UserRow } from '../users/user-repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    /** The signed-in user, set by the authentication hook on every protected route. */
    user?: UserRow;
    /** The session (refresh-token family) an embedded id token belongs to, when it names one. */
    sessionId?: string;
  }
  interface FastifyInstance {
    services: AppServices;
  }
}

type Part<T, Key extends string> = T extends Record<Key, infer S extends z.ZodType> ? z.output<S> : unknown;

/** A request typed from the contract's schemas for one route. */
export type RouteRequest<K extends RouteId> = FastifyRequest<{
  Params: Part<(typeof ROUTES)[K], 'params'>;
  Querystring: Part<(typeof ROUTES)[K], 'querystring'>;
  Body: Part<(typeof ROUTES)[K], 'body'>;
}>;

export type RouteHandler<K extends RouteId> = (request: RouteRequest<K>, reply: FastifyReply) => Promise<unknown>;

/** Handlers by route id; a route of the contract with no handler answers 501. */
export type RouteHandlers = { [K in RouteId]?: RouteHandler<K> };

/** The signed-in user of a protected route. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error('currentUser() called on a route without authentication');
  return request.user;
}
