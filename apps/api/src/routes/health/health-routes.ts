import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';

/** Liveness (the process answers) and readiness (it can reach its database). */
export function registerHealthRoutes(app: FastifyInstance): void {
  const access = { public: true } as const;
  app.get('/healthz', { config: { access }, schema: { hide: true }, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access }, schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    try {
      await app.services.db.execute(sql`select 1`);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ detail: 'The database is not reachable.' });
    }
  });
}
