import type { SessionError, SessionTokens } from './session-tokens';

declare module 'next-auth' {
  interface Session {
    idToken?: string;
    error?: SessionError;
  }
}

declare module 'next-auth/jwt' {
  interface JWT extends SessionTokens {
    idToken?: string;
  }
}
