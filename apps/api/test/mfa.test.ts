import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { generate } from 'otplib';
import { ACR, LIMITS, RECOVERY_CODE_COUNT, REFRESH_REFUSALS, SECOND_FACTOR_REQUIRED_DETAIL } from '@hdp/contract';
import { createUser } from '../src/users/admin-creator';
import { userRepository } from '../src/users/user-repository';
import { refreshTokenRepository } from '../src/identity/refresh-tokens';
import { startTestApp, ADMIN_EMAIL, PUBLIC_URL, TEST_PASSWORD, type TestApp } from './support/test-app';

/**
 * Multi-factor sign-in over HTTP, with the platform requiring a second factor (the default):
 * enrolment at first sign-in, each factor, replays and wrong codes, the account's own changes,
 * an administrator's reset, the sessions list, and every step in the audit trail.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ MFA_REQUIRED: 'true', WEB_URL: 'http://web.test' });
});
afterAll(() => t.close());

let counter = 0;
/** A fresh researcher, each from an address of their own (the throttle counts per address). */
async function newPerson() {
  const email = `mfa-person-${++counter}@example.org`;
  await createUser(t.services.db, { email, roles: ['RESEARCHER'], password: TEST_PASSWORD }, 'test');
  return { email, address: `10.77.${counter}.1` };
}

const post = (url: string, payload: unknown, remoteAddress = '10.77.0.1', token?: string) =>
  t.request({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress, ...(token && { token }) });

async function passwordStep(email: string, address: string) {
  const response = await post('/api/v1/auth/token/', { email, password: TEST_PASSWORD }, address);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The code an authenticator app shows `steps` periods from now (the API accepts one step either side). */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Signs a fresh person up to an authenticator app at first sign-in; returns the secret, codes and tokens. */
async function enrolTotp(person: { email: string; address: string }) {
  const { challenge, enrolment_required } = await passwordStep(person.email, person.address);
  expect(enrolment_required).toBe(true);
  const enrol = await post('/api/v1/auth/mfa/enrol/', { challenge, kind: 'TOTP' }, person.address);
  expect(enrol.statusCode, enrol.body).toBe(200);
  const { secret } = enrol.json().totp;
  const done = await post('/api/v1/auth/token/mfa/', { challenge, totp_code: await codeAt(secret, -1), name: 'My phone' }, person.address);
  expect(done.statusCode, done.body).toBe(200);
  return { ...done.json(), secret } as { secret: string; id_token: string; refresh_token: string; recovery_codes: string[] };
}

async function auditEvents(eventType: string, email: string) {
  const admin = await signInAdmin();
  const logs = await t.request({ method: 'GET', url: `/api/v1/logs/?event_type=${eventType}&page_size=100`, token: admin });
  return (logs.json() as { entries: { actor_email: string | null; message: string; details: Record<string, unknown> }[] }).entries.filter(
    (entry) => entry.actor_email === email || entry.message.includes(email),
  );
}

let adminToken: Promise<string> | undefined;
/** The administrator, enrolled once at first sign-in; the id token is good for the whole file. */
function signInAdmin(): Promise<string> {
  adminToken ??= enrolTotp({ email: ADMIN_EMAIL, address: '10.77.0.200' }).then((enrolled) => enrolled.id_token);
  return adminToken;
}

/** Failures the back-off lets through in `elapsedMs`: the first five, then one per wait of 1, 2, 4, … s. */
function allowedWithin(elapsedMs: number): number {
  let allowed = LIMITS.signInFailuresBeforeBackoff;
  for (let wait = 1, total = 1; total * 1000 <= elapsedMs; wait *= 2, total += wait) allowed += 1;
  return allowed;
}

describe('sign-in with a second factor required', () => {
  it('answers a password with a challenge, never with tokens, and enrols an authenticator app at first sign-in', async () => {
    const person = await newPerson();
    const step = await passwordStep(person.email, person.address);
    expect(step).toMatchObject({ mfa_required: true, enrolment_required: true, methods: ['webauthn', 'totp'] });
    expect(step.id_token).toBeUndefined();
    const enrol = await post('/api/v1/auth/mfa/enrol/', { challenge: step.challenge, kind: 'TOTP' }, person.address);
    const { totp } = enrol.json();
    expect(totp.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(totp.otpauth_uri).toContain(`secret=${totp.secret}`);
    const wrong = await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: '000000' }, person.address);
    expect(wrong.statusCode).toBe(401);
    const done = await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: await codeAt(totp.secret) }, person.address);
    expect(done.statusCode, done.body).toBe(200);
    const tokens = done.json();
    expect(tokens.recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    const claims = decodeJwt(tokens.id_token);
    expect(claims.acr).toBe(ACR.multiFactor);
    expect(claims.amr).toEqual(['pwd', 'mfa', 'otp']);
    expect((await t.request({ method: 'GET', url: '/api/v1/users/me/', token: tokens.id_token })).statusCode).toBe(200);
    // The challenge worked once.
    const again = await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: await codeAt(totp.secret, 1) }, person.address);
    expect(again.statusCode).toBe(401);
    expect(await auditEvents('MFA_ENROLLED', person.email)).toHaveLength(1);
  });

  it('refuses a code replayed in a later sign-in, and accepts the next one', async () => {
    const person = await newPerson();
    const { secret } = await enrolTotp(person);
    const used = await codeAt(secret, -1);
    const step = await passwordStep(person.email, person.address);
    expect(step).toMatchObject({ enrolment_required: false, methods: ['totp', 'recovery_code'] });
    const replay = await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: used }, person.address);
    expect(replay.statusCode).toBe(401);
    const next = await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: await codeAt(secret, 0) }, person.address);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().recovery_codes).toBeUndefined();
    const failures = await auditEvents('MFA_FAILED', person.email);
    expect(failures.map((f) => f.details.reason)).toContain('wrong_answer');
  });

  it('takes each recovery code once', async () => {
    const person = await newPerson();
    const { recovery_codes } = await enrolTotp(person);
    const code = recovery_codes[3]!;
    const first = await passwordStep(person.email, person.address);
    const ok = await post('/api/v1/auth/token/mfa/', { challenge: first.challenge, recovery_code: code.toUpperCase() }, person.address);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(decodeJwt(ok.json().id_token).amr).toEqual(['pwd', 'mfa', 'recovery']);
    const second = await passwordStep(person.email, person.address);
    const reused = await post('/api/v1/auth/token/mfa/', { challenge: second.challenge, recovery_code: code }, person.address);
    expect(reused.statusCode).toBe(401);
    const used = await auditEvents('RECOVERY_CODE_USED', person.email);
    expect(used).toHaveLength(1);
    expect(used[0]!.details.recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('counts wrong codes against the same back-off as wrong passwords, parallel ones included', async () => {
    const person = await newPerson();
    await enrolTotp(person);
    const step = await passwordStep(person.email, person.address);
    const started = Date.now();
    // Each guess from its own address: only the account's counter can stop them.
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: String(100000 + i) }, `10.78.0.${i + 1}`)),
    );
    const checked = guesses.filter((g) => g.statusCode === 401).length;
    expect(checked + guesses.filter((g) => g.statusCode === 429).length).toBe(30);
    expect(checked).toBeGreaterThanOrEqual(LIMITS.signInFailuresBeforeBackoff);
    expect(checked).toBeLessThanOrEqual(allowedWithin(Date.now() - started));
    expect((await auditEvents('MFA_FAILED', person.email)).some((f) => f.details.reason === 'throttled')).toBe(true);
  });

  it('charges wrong codes to the address too', async () => {
    const person = await newPerson();
    await enrolTotp(person);
    const address = '10.79.0.1';
    for (let i = 0; i < LIMITS.signInFailuresBeforeBackoff; i += 1) {
      const step = await passwordStep(person.email, person.address);
      expect((await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: '123456' }, address)).statusCode).toBe(401);
    }
    const other = await newPerson();
    expect((await post('/api/v1/auth/token/', { email: other.email, password: TEST_PASSWORD }, address)).statusCode).toBe(429);
  });

  it('refuses tokens without a second factor, older ones included, with a detail', async () => {
    const person = await newPerson();
    const user = (await userRepository.findByEmail(t.services.db, person.email))!;
    const passwordOnly = await t.services.idTokens.issue(user, { amr: ['pwd'], sessionId: '00000000-0000-4000-8000-000000000000' });
    const refused = await t.request({ method: 'GET', url: '/api/v1/users/me/', token: passwordOnly });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe(SECOND_FACTOR_REQUIRED_DETAIL);
    // A token as the issuer minted them before second factors existed: no acr, no amr.
    const { kid, privateKey } = t.services.signingKeys.signingKey();
    const older = await new SignJWT({ email: user.email })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer(PUBLIC_URL)
      .setAudience(t.config.tokenAudience)
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const olderRefused = await t.request({ method: 'GET', url: '/api/v1/users/me/', token: older });
    expect(olderRefused.statusCode).toBe(401);
    expect(olderRefused.json().detail).toBe(SECOND_FACTOR_REQUIRED_DETAIL);
  });

  it('ends a password-only session (one from before this was required) at its next refresh', async () => {
    const person = await newPerson();
    const user = (await userRepository.findByEmail(t.services.db, person.email))!;
    // A session as sign-in made them before: a refresh token from a password alone.
    const { token } = await refreshTokenRepository.issue(t.services.db, user.id, { amr: [] });
    const refused = await post('/api/v1/auth/refresh/', { refresh_token: token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe(REFRESH_REFUSALS.secondFactorRequired);
  });
});

describe('passkeys', () => {
  it('offers WebAuthn registration at sign-in for the web app as relying party, and refuses a forged answer', async () => {
    const person = await newPerson();
    const { challenge } = await passwordStep(person.email, person.address);
    const options = await post('/api/v1/auth/mfa/enrol/', { challenge, kind: 'WEBAUTHN' }, person.address);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json().webauthn).toMatchObject({ rp: { id: 'web.test' }, user: { name: person.email } });
    const forged = await post(
      '/api/v1/auth/token/mfa/',
      { challenge, webauthn_registration: { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } } },
      person.address,
    );
    expect(forged.statusCode).toBe(401);
    // A person without passkeys gets no WebAuthn sign-in options.
    expect((await post('/api/v1/auth/mfa/options/', { challenge }, person.address)).json()).toEqual({ webauthn: null });
  });
});

describe('the account page', () => {
  it('lists, adds, renames and removes factors, never the last one, and regenerates recovery codes', async () => {
    const person = await newPerson();
    const { id_token: token, secret } = await enrolTotp(person);
    const list = async () => (await t.request({ method: 'GET', url: '/api/v1/users/me/mfa/', token })).json();
    const status = await list();
    expect(status).toMatchObject({ required: true, recovery_codes_left: RECOVERY_CODE_COUNT });
    expect(status.factors).toHaveLength(1);
    const only = status.factors[0].id;
    const lastRefused = await t.request({ method: 'DELETE', url: `/api/v1/users/me/mfa/${only}/`, token });
    expect(lastRefused.statusCode).toBe(409);

    const start = await post('/api/v1/users/me/mfa/totp/', { name: 'Tablet' }, person.address, token);
    expect(start.statusCode, start.body).toBe(200);
    const second = start.json();
    expect(second.secret).not.toBe(secret);
    const wrong = await post(`/api/v1/users/me/mfa/totp/${second.factor_id}/confirm/`, { code: '000000' }, person.address, token);
    expect(wrong.statusCode).toBe(400);
    const confirmed = await post(`/api/v1/users/me/mfa/totp/${second.factor_id}/confirm/`, { code: await codeAt(second.secret) }, person.address, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().recovery_codes).toBeUndefined();

    const renamed = await t.request({ method: 'PATCH', url: `/api/v1/users/me/mfa/${only}/`, payload: { name: 'Old phone' }, token });
    expect(renamed.json().factor.name).toBe('Old phone');
    expect((await t.request({ method: 'DELETE', url: `/api/v1/users/me/mfa/${only}/`, token })).statusCode).toBe(204);
    expect((await list()).factors.map((f: { name: string }) => f.name)).toEqual(['Tablet']);

    const codes = await post('/api/v1/users/me/mfa/recovery-codes/', {}, person.address, token);
    expect(codes.json().recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const event of ['MFA_ENROLLED', 'MFA_RENAMED', 'MFA_REMOVED', 'RECOVERY_CODES_REGENERATED']) {
      expect(await auditEvents(event, person.email), event).not.toHaveLength(0);
    }
    // Another person's factor is not found.
    const stranger = await enrolTotp(await newPerson());
    expect((await t.request({ method: 'DELETE', url: `/api/v1/users/me/mfa/${second.factor_id}/`, token: stranger.id_token })).statusCode).toBe(404);
  });

  it('lists sessions with device and address, ends one and all', async () => {
    const person = await newPerson();
    const first = await enrolTotp(person);
    const { secret } = first;
    const step = await passwordStep(person.email, '10.80.0.9');
    const secondSession = (await post('/api/v1/auth/token/mfa/', { challenge: step.challenge, totp_code: await codeAt(secret, 0) }, '10.80.0.9')).json();
    const sessions = (await t.request({ method: 'GET', url: '/api/v1/users/me/sessions/', token: first.id_token, headers: { 'user-agent': 'x' } })).json().sessions;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions.map((s: { client_address: string }) => s.client_address).sort()).toEqual([person.address, '10.80.0.9'].sort());
    const other = sessions.find((s: { current: boolean }) => !s.current);
    expect((await t.request({ method: 'DELETE', url: `/api/v1/users/me/sessions/${other.id}/`, token: first.id_token })).statusCode).toBe(204);
    expect((await post('/api/v1/auth/refresh/', { refresh_token: secondSession.refresh_token })).statusCode).toBe(401);
    const all = await t.request({ method: 'DELETE', url: '/api/v1/users/me/sessions/', token: first.id_token });
    expect(all.json()).toEqual({ sessions_ended: 1 });
    expect((await post('/api/v1/auth/refresh/', { refresh_token: first.refresh_token })).statusCode).toBe(401);
  });
});

describe('administrators', () => {
  it("reset a person's factors (audited): the person enrols again at the next sign-in, and their sessions end", async () => {
    const person = await newPerson();
    const enrolled = await enrolTotp(person);
    const admin = await signInAdmin();
    const userId = decodeJwt(enrolled.id_token).sub!;
    const notAllowed = await post(`/api/v1/users/mfa-reset/${userId}/`, {}, person.address, enrolled.id_token);
    expect(notAllowed.statusCode).toBe(403);
    expect((await post(`/api/v1/users/mfa-reset/${userId}/`, {}, '10.77.0.200', admin)).statusCode).toBe(204);
    expect((await post('/api/v1/auth/refresh/', { refresh_token: enrolled.refresh_token })).statusCode).toBe(401);
    expect(await passwordStep(person.email, person.address)).toMatchObject({ enrolment_required: true });
    expect(await auditEvents('MFA_RESET', person.email)).toHaveLength(1);
    expect((await post('/api/v1/users/mfa-reset/00000000-0000-4000-8000-000000000000/', {}, '10.77.0.200', admin)).statusCode).toBe(404);
  });

  it("end all of a person's sessions", async () => {
    const person = await newPerson();
    const enrolled = await enrolTotp(person);
    const admin = await signInAdmin();
    const userId = decodeJwt(enrolled.id_token).sub!;
    const ended = await post(`/api/v1/users/sessions-end/${userId}/`, {}, '10.77.0.200', admin);
    expect(ended.json()).toEqual({ sessions_ended: 1 });
    expect((await post('/api/v1/auth/refresh/', { refresh_token: enrolled.refresh_token })).statusCode).toBe(401);
  });
});

describe('with the second factor not required', () => {
  it('signs in with a password alone, but asks anyone who enrolled a factor for it', async () => {
    const plain = await startTestApp({ MFA_REQUIRED: 'false' });
    try {
      const email = 'optional@example.org';
      await createUser(plain.services.db, { email, roles: ['RESEARCHER'], password: TEST_PASSWORD }, 'test');
      const first = await plain.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email, password: TEST_PASSWORD } });
      const tokens = first.json();
      expect(decodeJwt(tokens.id_token)).toMatchObject({ acr: ACR.singleFactor, amr: ['pwd'] });
      const start = await plain.request({ method: 'POST', url: '/api/v1/users/me/mfa/totp/', payload: {}, token: tokens.id_token });
      const { factor_id, secret } = start.json();
      const confirmed = await plain.request({
        method: 'POST',
        url: `/api/v1/users/me/mfa/totp/${factor_id}/confirm/`,
        payload: { code: await codeAt(secret) },
        token: tokens.id_token,
      });
      expect(confirmed.json().recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
      const next = await plain.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email, password: TEST_PASSWORD } });
      expect(next.json()).toMatchObject({ mfa_required: true, enrolment_required: false, methods: ['totp', 'recovery_code'] });
      // Not required: the last factor may go.
      const factors = (await plain.request({ method: 'GET', url: '/api/v1/users/me/mfa/', token: tokens.id_token })).json().factors;
      expect((await plain.request({ method: 'DELETE', url: `/api/v1/users/me/mfa/${factors[0].id}/`, token: tokens.id_token })).statusCode).toBe(204);
    } finally {
      await plain.close();
    }
  });
});
