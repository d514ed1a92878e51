import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@hdp/contract';
import { auditEntriesToCsv, collectEntries, csvCell } from './audit-log-csv';

function entry(seq: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    seq,
    timestamp: '2026-11-21T10:00:00.000Z',
    actor: { id: 'u-1', email: 'ada@example.org' },
    event_type: 'DOCUMENT_UPLOADED',
    resource: { type: 'document', id: 'd-1' },
    outcome: 'SUCCESS',
    message: 'ada@example.org uploaded "a.pdf"',
    client_address: '127.0.0.1',
    user_agent: 'Chromium',
    request_id: 'req-1',
    details: {},
    ...overrides,
  };
}

describe('audit log CSV', () => {
  it('quotes cells with commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('writes cells a spreadsheet would run as formulas as text', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-1)).toBe('-1');
  });

  it('has a header and one row per entry, with every field', () => {
    const csv = auditEntriesToCsv([entry(7, { details: { name: 'a.pdf', size_bytes: 3 } })]);
    const [header, row, end] = csv.split('\r\n');
    expect(header).toBe('seq,timestamp,event_type,outcome,actor_email,actor_id,resource_type,resource_id,message,client_address,user_agent,request_id,details');
    expect(row).toBe(
      '7,2026-11-21T10:00:00.000Z,DOCUMENT_UPLOADED,SUCCESS,ada@example.org,u-1,document,d-1,"ada@example.org uploaded ""a.pdf""",127.0.0.1,Chromium,req-1,"{""name"":""a.pdf"",""size_bytes"":3}"',
    );
    expect(end).toBe('');
  });

  it('reads pages until the filter is exhausted', async () => {
    const all = Array.from({ length: 25 }, (_, i) => entry(i + 1));
    const calls: [number, number][] = [];
    const result = await collectEntries(async (skip, limit) => {
      calls.push([skip, limit]);
      return { entries: all.slice(skip, skip + limit) };
    }, 100, 10);
    expect(result.entries.map((e) => e.seq)).toEqual(all.map((e) => e.seq));
    expect(result.truncated).toBe(false);
    expect(calls).toEqual([[0, 10], [10, 10], [20, 10]]);
  });

  it('stops at the cap and says more entries matched', async () => {
    const all = Array.from({ length: 25 }, (_, i) => entry(i + 1));
    const read = async (skip: number, limit: number) => ({ entries: all.slice(skip, skip + limit) });
    expect(await collectEntries(read, 20, 10)).toMatchObject({ truncated: true });
    expect((await collectEntries(read, 20, 10)).entries).toHaveLength(20);
    expect(await collectEntries(read, 25, 10)).toMatchObject({ truncated: false });
  });
});
