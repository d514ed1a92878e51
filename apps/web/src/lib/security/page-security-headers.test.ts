import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, newNonce, notebookBaseUrl, notebookHosts, transportSecurityHeader } from './page-security-headers';

const directives = (policy: string) => Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe('the pages’ Content-Security-Policy', () => {
  it('in production runs only nonce-carrying scripts, never evaluates strings, and cannot be framed', () => {
    const policy = directives(contentSecurityPolicy({ nonce: 'abc', development: false }));
    expect(policy['script-src']).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(policy['style-src']).toEqual(["'self'", "'nonce-abc'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(JSON.stringify(policy)).not.toContain('unsafe-eval');
  });

  it('lets the browser reach an API on another origin, and the sign-in form reach the identity provider', () => {
    const policy = directives(contentSecurityPolicy({ nonce: 'n', development: false, apiBaseUrl: 'https://api.example.org/base/', oidcIssuer: 'https://login.example.org/realms/x' }));
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.example.org']);
    expect(policy['form-action']).toEqual(["'self'", 'https://login.example.org']);
  });

  it("lets the open flow post a ticket to a notebook's own host, and nowhere else", () => {
    const policy = directives(contentSecurityPolicy({ nonce: 'n', development: false, notebookBaseUrl: 'https://notebooks.example.org' }));
    expect(policy['form-action']).toEqual(["'self'", 'https://*.notebooks.example.org']);
    expect(notebookBaseUrl({ API_INTERNAL_URL: 'http://127.0.0.1:8123' })).toBe('http://notebooks.localhost:8123');
    expect(notebookBaseUrl({ NOTEBOOK_BASE_URL: 'https://nb.example.org', API_INTERNAL_URL: 'http://127.0.0.1:8123' })).toBe('https://nb.example.org');
    expect(notebookHosts('http://notebooks.localhost:8123')).toBe('http://*.notebooks.localhost:8123');
  });

  it('sends HSTS only behind HTTPS, and makes a new nonce each time', () => {
    expect(transportSecurityHeader('https://hdp.example.org')).toMatch(/^max-age=/);
    expect(transportSecurityHeader('http://localhost:3000')).toBeUndefined();
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[\w+/]{22}==$/);
  });
});
