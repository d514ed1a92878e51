import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ADMIN_EMAIL, type TestApp } from './support/test-app';
import { startSmtpSink, type ReceivedMail } from './support/smtp-sink';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let adminToken: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: smtp.url, WEB_URL: 'https://hdp.example.org' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const invite = (invitations: unknown[]) =>
  t.request({ method: 'POST', url: '/api/v1/users/', token: adminToken, payload: { invitations } });
const post = (url: string, payload?: Record<string, unknown>) => t.request({ method: 'POST', url, token: adminToken, payload });
const inspect = (token: string) => t.request({ method: 'POST', url: '/api/v1/invitations/inspect/', payload: { token } });
const accept = (token: string, password: string) =>
  t.request({ method: 'POST', url: '/api/v1/invitations/accept/', payload: { token, password } });

/** The token of the newest invitation e-mail sent to an address. */
function tokenFor(email: string): string {
  const mail = [...smtp.messages].reverse().find((m: ReceivedMail) => m.to.includes(email));
  if (!mail) throw new Error(`no e-mail to ${email}`);
  const match = /https:\/\/hdp\.example\.org\/accept-invitation#token=([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no link in e-mail to ${email}`);
  return match[1]!;
}

describe('inviting users', () => {
  it('invites several addresses and reports each one', async () => {
    const response = await invite([
      { email: 'Rita@Example.org', roles: ['RESEARCHER'], name: 'Rita' },
      { email: 'rita@example.org', roles: ['AUDITOR'] },
      { email: ADMIN_EMAIL, roles: ['RESEARCHER'] },
      { email: 'sam@example.org', roles: ['DATA_STEWARD', 'RESEARCHER'] },
    ]);
    expect(response.statusCode).toBe(201);
    const results = response.json().results;
    expect(results.map((r: { email: string; outcome: string }) => [r.email, r.outcome])).toEqual([
      ['rita@example.org', 'INVITED'],
      ['rita@example.org', 'DUPLICATE_IN_REQUEST'],
      [ADMIN_EMAIL, 'ALREADY_EXISTS'],
      ['sam@example.org', 'INVITED'],
    ]);
    expect(results[0].user).toMatchObject({ status: 'INVITED', roles: ['RESEARCHER'], user_source: 'LOCAL', invitation_expired: false });
    expect(results[0].email_sent).toBe(true);
    expect(results[2].detail).toBe('A user with this email already exists (ACTIVE).');
    const days = (Date.parse(results[0].user.invitation_expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('answers 409 when nobody could be invited', async () => {
    const response = await invite([{ email: ADMIN_EMAIL, roles: ['ADMIN'] }]);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe(`${ADMIN_EMAIL}: A user with this email already exists (ACTIVE).`);
  });

  it('answers 400 naming a bad address, and invites nobody', async () => {
    const response = await invite([
      { email: 'good@example.org', roles: ['RESEARCHER'] },
      { email: 'not an email', roles: ['RESEARCHER'] },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('body.invitations.1.email: Invalid email address');
    const list = await t.request({ method: 'GET', url: '/api/v1/users/?search=good@', token: adminToken });
    expect(list.json().total).toBe(0);
  });

  it('sends an e-mail with a single-use link; the invited person sets a password and signs in', async () => {
    const token = tokenFor('rita@example.org');
    const info = await inspect(token);
    expect(info.json()).toMatchObject({ email: 'rita@example.org', name: 'Rita', user_source: 'LOCAL' });

    expect((await accept(token, 'short')).json().detail).toBe('password: must be at least 12 characters. A few unrelated words make a strong one.');
    expect((await accept(token, 'password1234')).json().detail).toBe(
      'password: is too easy to guess. This is similar to a commonly used password. A few unrelated words make a strong one.',
    );
    const accepted = await accept(token, 'a sound passphrase for rita');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ email: 'rita@example.org', status: 'ACTIVE', invitation_expires_at: null });

    const signIn = await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: 'rita@example.org', password: 'a sound passphrase for rita' } });
    expect(signIn.statusCode).toBe(200);
    const again = await accept(token, 'another sound passphrase');
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe('This invitation is no longer valid. Ask an administrator to send a new one.');
  });

  it('refuses guessable passwords, saying why and what to do, and the invitation stays open', async () => {
    const email = 'wendy.weak@example.org';
    expect((await invite([{ email, roles: ['RESEARCHER'], name: 'Wendy Weak' }])).statusCode).toBe(201);
    const token = tokenFor(email);
    const weak = ['Password123!', 'password123!', 'P@ssw0rd1234', 'abcdefghijkl', 'aaaaaaaaaaab', '1234567890123', 'welcome12345', 'changeme1234', 'Summer2024!!', email, 'WendyWeak2024!'];
    for (const password of weak) {
      const refused = await accept(token, password);
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json().detail, password).toMatch(/^password: is too easy to guess\. .+ A few unrelated words make a strong one\.$/);
    }
    expect((await accept(token, email)).json().detail).toContain('It contains your name or email address.');
    expect((await accept(token, 'Summer2024!!')).json().detail).toContain('a word with a year or symbols added');
    const [user] = (await t.request({ method: 'GET', url: `/api/v1/users/?search=${email}`, token: adminToken })).json().users;
    expect(user.status).toBe('INVITED');
    expect((await accept(token, 'marble kettle orbit sparrow')).statusCode).toBe(200);
  });

  it('re-sending issues a new link and the old one stops working', async () => {
    const oldToken = tokenFor('sam@example.org');
    const sam = (await t.request({ method: 'GET', url: '/api/v1/users/?search=sam@', token: adminToken })).json().users[0];
    const resent = await post(`/api/v1/users/invitation/${sam.id}/sam@example.org/`);
    expect(resent.statusCode).toBe(200);
    const newToken = tokenFor('sam@example.org');
    expect(newToken).not.toBe(oldToken);
    expect((await inspect(oldToken)).statusCode).toBe(404);
    expect((await inspect(newToken)).statusCode).toBe(200);
    const wrongEmail = await post(`/api/v1/users/invitation/${sam.id}/someone.else@example.org/`);
    expect(wrongEmail.statusCode).toBe(404);
  });

  it('a revoked invitation link says it is no longer valid, and revoking twice is a conflict', async () => {
    const invited = (await invite([{ email: 'vic@example.org', roles: ['RESEARCHER'] }])).json().results[0].user;
    const token = tokenFor('vic@example.org');
    const revoked = await post(`/api/v1/users/revoke/${invited.id}/`);
    expect(revoked.json()).toMatchObject({ status: 'REVOKED', invitation_expires_at: null });
    expect((await inspect(token)).json().detail).toBe('This invitation is no longer valid. Ask an administrator to send a new one.');
    const twice = await post(`/api/v1/users/revoke/${invited.id}/`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('Only a pending invitation can be revoked; this user is REVOKED.');
    const resend = await post(`/api/v1/users/invitation/${invited.id}/vic@example.org/`);
    expect(resend.statusCode).toBe(409);
  });

  it('an expired invitation shows as such and can be re-sent', async () => {
    const invited = (await invite([{ email: 'eve@example.org', roles: ['AUDITOR'] }])).json().results[0].user;
    const token = tokenFor('eve@example.org');
    await t.services.db.execute(sql`update invitations set expires_at = now() - interval '1 hour' where user_id = ${invited.id}`);
    await t.services.db.execute(sql`update users set invitation_expires_at = now() - interval '1 hour' where id = ${invited.id}`);
    const listed = await t.request({ method: 'GET', url: '/api/v1/users/?search=eve@&status=INVITED', token: adminToken });
    expect(listed.json().users[0]).toMatchObject({ status: 'INVITED', invitation_expired: true });
    expect((await inspect(token)).json().detail).toBe('This invitation has expired. Ask an administrator to send a new one.');
    await post(`/api/v1/users/invitation/${invited.id}/eve@example.org/`);
    expect((await inspect(tokenFor('eve@example.org'))).statusCode).toBe(200);
  });

  it('cannot disable an invited user (the state machine says why)', async () => {
    const invited = (await invite([{ email: 'ivan@example.org', roles: ['RESEARCHER'] }])).json().results[0].user;
    const response = await post(`/api/v1/users/disable/${invited.id}/`);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe('Only an active user can be disabled; this user is INVITED.');
  });
});

describe('the outbox (no mail server configured)', () => {
  it('writes each invitation as an .eml file under DATA_DIR/outbox', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-outbox-'));
    const app = await startTestApp({ DATA_DIR: dataDir });
    try {
      const token = (await app.signIn(ADMIN_EMAIL)).id_token;
      const response = await app.request({
        method: 'POST', url: '/api/v1/users/', token, payload: { invitations: [{ email: 'olga@example.org', roles: ['RESEARCHER'] }] },
      });
      expect(response.json().results[0].email_sent).toBe(true);
      const files = fs.readdirSync(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = fs.readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8');
      expect(eml).toContain('To: olga@example.org');
      expect(eml).toContain('Subject: You are invited to the Health Data Platform');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
