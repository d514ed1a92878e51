import type { SessionError, SessionTokens } from './session-tokens';

declare module 'next-auth' {
  interface Session {
    idToken?: string;
    error?: SessionError;
    /** Recovery codes of a first factor enrolled at sign-in, until the page showing them once is done. */
    recoveryCodes?: string[];
  }
}

declare module 'next-auth/jwt' {
  interface JWT extends SessionTokens {
    idToken?: string;
    recoveryCodes?: string[];
  }
}
