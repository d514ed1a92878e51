import type { AuditEntry } from '@hdp/contract';

/** The CSV's columns, in order, and how each is read from an entry. */
const COLUMNS: readonly [string, (entry: AuditEntry) => unknown][] = [
  ['seq', (e) => e.seq],
  ['timestamp', (e) => e.timestamp],
  ['event_type', (e) => e.event_type],
  ['outcome', (e) => e.outcome],
  ['actor_email', (e) => e.actor.email],
  ['actor_id', (e) => e.actor.id],
  ['resource_type', (e) => e.resource.type],
  ['resource_id', (e) => e.resource.id],
  ['message', (e) => e.message],
  ['client_address', (e) => e.client_address],
  ['user_agent', (e) => e.user_agent],
  ['request_id', (e) => e.request_id],
  ['details', (e) => (Object.keys(e.details).length ? JSON.stringify(e.details) : '')],
];

/** Cells starting with these are formulas to a spreadsheet: they are written as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The entries as CSV text with a header row and CRLF line ends. */
export function auditEntriesToCsv(entries: readonly AuditEntry[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const entry of entries) lines.push(COLUMNS.map(([, read]) => csvCell(read(entry))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export interface CollectedEntries {
  entries: AuditEntry[];
  /** More entries matched than the export may hold. */
  truncated: boolean;
}

/**
 * Reads pages until the filter is exhausted or `maxRows` entries are collected. `readPage`
 * gets the offset and the page size and returns that page's entries.
 */
export async function collectEntries(
  readPage: (skip: number, limit: number) => Promise<{ entries: AuditEntry[] }>,
  maxRows: number,
  pageSize: number,
): Promise<CollectedEntries> {
  const entries: AuditEntry[] = [];
  while (entries.length < maxRows) {
    const limit = Math.min(pageSize, maxRows - entries.length);
    const page = await readPage(entries.length, limit);
    entries.push(...page.entries);
    if (page.entries.length < limit) return { entries, truncated: false };
  }
  // Exactly maxRows read: one more entry means the export is cut short.
  const next = await readPage(entries.length, 1);
  return { entries, truncated: next.entries.length > 0 };
}
