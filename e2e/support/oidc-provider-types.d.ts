/**
 * The part of `oidc-provider` (v9, which ships no type declarations) that the tests use.
 * See https://github.com/panva/node-oidc-provider/blob/main/docs/README.md.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type JWK = { kid?: string; alg?: string; use?: string; [member: string]: unknown };
  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    client_name?: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }
  export interface KoaContextWithOIDC {
    oidc: { params?: Record<string, unknown> };
  }
  export interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  export interface Configuration {
    adapter?: (model: string) => unknown;
    clients?: ClientMetadata[];
    jwks?: { keys: JWK[] };
    cookies?: { keys: string[] };
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    acrValues?: string[];
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string };
    pkce?: { required: (ctx: KoaContextWithOIDC, client: unknown) => boolean };
    issueRefreshToken?: (ctx: KoaContextWithOIDC, client: { grantTypeAllowed(grant: string): boolean }) => boolean | Promise<boolean>;
    ttl?: Record<string, number>;
  }
  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
    grantId?: string;
  }
  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: KoaContextWithOIDC, ...rest: unknown[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Client: { find(id: string): Promise<{ clientId: string; clientName?: string } | undefined> };
    Grant: { new (properties: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  }
}
