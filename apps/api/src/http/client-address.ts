import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER, verifyClientAddress } from '@hdp/contract/client-address';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The address of the person behind the request: the browser's address signed by the web app
     * (CLIENT_ADDRESS_SECRET), else the connection's (or X-Forwarded-For's under TRUST_PROXY).
     */
    readonly clientAddress: string;
  }
}

/**
 * Decorates requests with `clientAddress`, worked out on first read (only sign-in and audit
 * entries need it). Without a secret, no caller can name another address.
 */
export function registerClientAddress(app: FastifyInstance, secret: string | undefined): void {
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest) {
      if (!secret) return this.ip;
      const headers = this.headers;
      return verifyClientAddress(secret, headers[CLIENT_ADDRESS_HEADER], headers[CLIENT_ADDRESS_SIGNATURE_HEADER]) ?? this.ip;
    },
  });
}
