/** The part of `oidc-provider` (v9, which ships no type declarations) that the API's tests use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export default class Provider {
    constructor(
      issuer: string,
      configuration: { jwks?: { keys: Record<string, unknown>[] }; cookies?: { keys: string[] }; features?: Record<string, { enabled: boolean }> },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
