import { describe, expect, it } from 'vitest';
import { integrityText } from './chain-integrity';

const checked_at = '2026-11-21T10:00:00.000Z';

describe('the chain integrity badge', () => {
  it('says how far the chain is verified', () => {
    expect(integrityText({ ok: true, entries: 1234, verified_up_to: 1234, first_broken: null, checked_at })).toEqual({
      ok: true,
      text: 'Integrity verified up to entry 1,234',
    });
  });

  it('names the first broken entry and why', () => {
    expect(
      integrityText({ ok: false, entries: 10, verified_up_to: 6, first_broken: { seq: 7, reason: 'hash mismatch' }, checked_at }),
    ).toEqual({ ok: false, text: 'Integrity broken at entry 7: hash mismatch' });
  });

  it('says when there is nothing to verify', () => {
    expect(integrityText({ ok: true, entries: 0, verified_up_to: null, first_broken: null, checked_at }).text).toBe('No entries to verify yet');
  });
});
