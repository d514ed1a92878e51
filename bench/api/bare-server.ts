// A bare Fastify server answering the same path with a same-sized JSON body: the baseline. With
// ROUTE_TABLE=contract it also registers every other route of the API contract (same methods and
// paths, answering the same body), to show what the size of the route table alone costs. It keeps
// a nextTick entry alive as the API does (see that module), so that neither side of the comparison
// is slowed at random by megamorphic tick caches.
import '../../apps/api/src/runtime/stable-tick-shapes';
import Fastify from 'fastify';
import { ROUTES } from '@hdp/contract';

const body = {
  id: '00000000-0000-4000-8000-000000000000',
  email: 'admin@example.org',
  name: 'Administrator',
  roles: ['ADMIN'],
  status: 'ACTIVE',
  user_source: 'LOCAL',
  created_at: new Date().toISOString(),
  permissions: Array.from({ length: 36 }, (_, i) => `resource${i}:action`),
};
const app = Fastify({ logger: false });
app.get('/api/v1/users/me/', async () => body);
if (process.env.ROUTE_TABLE === 'contract') {
  for (const route of Object.values(ROUTES)) {
    if (route.method === 'GET' && route.path === '/api/v1/users/me/') continue;
    app.route({ method: route.method, url: route.path.replace(/\{(\w+)\}/g, ':$1'), handler: async () => body });
  }
}
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`BARE listening ${(app.server.address() as { port: number }).port}\n`);
