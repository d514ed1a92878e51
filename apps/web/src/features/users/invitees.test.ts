import { describe, expect, it } from 'vitest';
import { parseInvitees } from './invitees';

describe('parseInvitees', () => {
  it('reads addresses on lines, or separated by commas and semicolons', () => {
    expect(parseInvitees('a@example.org\nB@Example.org, c@example.org;d@example.org\n\n').invitees).toEqual([
      { email: 'a@example.org' },
      { email: 'b@example.org' },
      { email: 'c@example.org' },
      { email: 'd@example.org' },
    ]);
  });

  it('takes an optional name in the form "Name <address>"', () => {
    expect(parseInvitees('Ada Lovelace <ada@example.org>\n"Grace Hopper" <grace@example.org>').invitees).toEqual([
      { email: 'ada@example.org', name: 'Ada Lovelace' },
      { email: 'grace@example.org', name: 'Grace Hopper' },
    ]);
  });

  it('lists what is not an address', () => {
    expect(parseInvitees('ada@example.org\nnot an address\nbob@').invalid).toEqual(['not an address', 'bob@']);
  });

  it('keeps repeated addresses for the API to report', () => {
    expect(parseInvitees('a@example.org\na@example.org').invitees).toHaveLength(2);
  });
});
