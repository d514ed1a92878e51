import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './http/response-serializer';
import { OPENAPI_TRANSFORMS } from './http/openapi-document';
import type { AppServices } from './app-services';
import { registerErrorHandling } from './http/error-handler';
import { clientErrorHandler, registerUnmatchedRoutes, routerErrorHandler } from './http/framework-errors';
import { registerInputGuard } from './http/input-guard';
import { apiSecurityHeaders, PAGE_SECURITY_HEADERS } from './http/security-headers';
import { registerAuthentication } from './http/authenticate';
import { registerAccessLog } from './http/access-log';
import { registerClientAddress } from './http/client-address';
import { lazyRequestLogger } from './http/request-logger';
import { registerContractRoutes } from './routes/contract-routes';
import { registerHealthRoutes } from './routes/health/health-routes';
import { registerWellKnownRoutes } from './routes/auth/well-known-routes';
import { registerNotebookProxy } from './notebooks/notebook-proxy';
import { auditEgressRefused, countEgress } from './notebooks/egress/egress-control';
import { auditNotebookOpen, proxyGate } from './notebooks/notebook-commands';

/** Request ids: a caller's own (from a proxy) when it looks sane, a fresh UUID otherwise. */
const REQUEST_ID = /^[\w.:-]{8,128}$/;
/** The longest path parameter the router accepts (ids are 36 characters, an email up to 254). */
const MAX_PARAM_LENGTH = 320;


/** Builds the API around services that are already open. The caller listens and closes. */
export async function buildApp(services: AppServices): Promise<FastifyInstance> {
  const { config } = services;
  const securityHeaders = apiSecurityHeaders(config.publicUrl);
  const app = Fastify({
    loggerInstance: services.logger,
    // Only the peer (the proxy in front of the API) is trusted, so the client is the address it
    // saw: the last X-Forwarded-For entry. `true` would take the first, which the client writes.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: routerErrorHandler(securityHeaders, MAX_PARAM_LENGTH),
    clientErrorHandler: clientErrorHandler(securityHeaders),
    // Off: Fastify would take the caller's header as it is; genReqId checks it first.
    requestIdHeader: false,
    // One log line per request (on response) instead of Fastify's two: half the log volume.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.decorate('services', services);
  services.jobs.log = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.header(name, value);
    reply.header('x-request-id', request.id);
    done();
  });
  registerAccessLog(app, services);
  registerInputGuard(app);
  registerUnmatchedRoutes(app);
  registerClientAddress(app, config.clientAddressSecret);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Health data platform API', version: '1' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    ...OPENAPI_TRANSFORMS,
  });
  await app.register(async (docs) => {
    docs.addHook('onRequest', (_request, reply, done) => {
      reply.headers(PAGE_SECURITY_HEADERS);
      done();
    });
    await docs.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { deepLinking: false } });
  });

  registerErrorHandling(app, config.bodyLimitBytes);
  registerAuthentication(app);
  registerHealthRoutes(app);
  registerWellKnownRoutes(app);
  registerContractRoutes(app);
  const { notebooks } = services;
  await registerNotebookProxy(app, {
    sessions: notebooks.sessions,
    activity: notebooks.activity,
    connections: notebooks.connections,
    upstream: (notebookId) => notebooks.driver.upstream(notebookId),
    mayUse: proxyGate(services),
    origins: notebooks.origins,
    openerOrigins: [new URL(config.webUrl).origin],
    onOpen: auditNotebookOpen(services),
    upstreamTimeoutMs: config.notebooks.upstreamTimeoutSeconds * 1000,
    terminals: config.notebooks.terminals,
    webUrl: config.webUrl,
    onEgressRefused: auditEgressRefused(services),
    ...(notebooks.egress && { onEgress: countEgress(notebooks.egress) }),
  });
  app.get('/api/v1/openapi.json', { config: { access: { public: true } }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  return app;
}
