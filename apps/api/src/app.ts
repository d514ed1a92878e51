import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { LIMITS } from '@hdp/contract';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializerCompiler } from './http/response-serializer';
import type { AppServices } from './app-services';
import { registerErrorHandling } from './http/error-handler';
import { SECURITY_HEADERS } from './http/security-headers';
import { registerAuthentication } from './http/authenticate';
import { registerContractRoutes } from './routes/contract-routes';
import { registerHealthRoutes } from './routes/health/health-routes';
import { registerWellKnownRoutes } from './routes/auth/well-known-routes';

/** Request ids: a caller's own (from a proxy) when it looks sane, a fresh UUID otherwise. */
const REQUEST_ID = /^[\w.:-]{8,128}$/;


/** Builds the API around services that are already open. The caller listens and closes. */
export async function buildApp(services: AppServices): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.logger,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    // One log line per request (on response) instead of Fastify's two: half the log volume.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.decorate('services', services);
  services.queryWorker.log = app.log;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request completed',
    );
    done();
  });

  // One file per upload, capped: past the cap the stream is cut and the upload refused (413).
  await app.register(multipart, { limits: { fileSize: LIMITS.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Health data platform API', version: '1' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { deepLinking: false } });

  registerErrorHandling(app, config.bodyLimitBytes);
  registerAuthentication(app);
  registerHealthRoutes(app);
  registerWellKnownRoutes(app);
  registerContractRoutes(app);
  app.get('/api/v1/openapi.json', { config: { access: { public: true } }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  return app;
}
