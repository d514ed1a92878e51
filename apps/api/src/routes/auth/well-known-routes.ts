import type { FastifyInstance } from 'fastify';
import { SIGNING_ALGORITHM } from '../../identity/signing-keys';

/** OIDC discovery and the public keys of the embedded issuer, for anyone verifying its tokens. */
export function registerWellKnownRoutes(app: FastifyInstance): void {
  const { config, signingKeys } = app.services;
  const access = { public: true } as const;
  app.get('/.well-known/openid-configuration', { config: { access }, schema: { hide: true } }, async () => ({
    issuer: config.publicUrl,
    jwks_uri: `${config.publicUrl}/.well-known/jwks.json`,
    token_endpoint: `${config.publicUrl}/api/v1/auth/token/`,
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    subject_types_supported: ['public'],
    response_types_supported: ['id_token'],
    grant_types_supported: ['password', 'refresh_token'],
    claims_supported: ['sub', 'email', 'name', 'iss', 'aud', 'exp', 'iat', 'nbf', 'jti'],
  }));
  app.get('/.well-known/jwks.json', { config: { access }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return signingKeys.jwks();
  });
}
