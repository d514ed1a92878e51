import type { AuditChainReport } from '@hdp/contract';
import type { Database } from '../db/database';
import { verifyAuditChain } from './audit-trail';

/** How long a verification result is served before the chain is walked again. */
const FRESH_FOR_MS = 60_000;

/**
 * Walks the whole chain at most once a minute per process (a million entries take seconds), and
 * never twice at once: concurrent callers share the walk in progress.
 */
export class ChainVerificationCache {
  private latest: { report: AuditChainReport; atMs: number } | undefined;
  private running: Promise<AuditChainReport> | undefined;

  constructor(private readonly db: Database) {}

  async report(): Promise<AuditChainReport> {
    if (this.latest && Date.now() - this.latest.atMs < FRESH_FOR_MS) return this.latest.report;
    this.running ??= this.walk().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async walk(): Promise<AuditChainReport> {
    const result = await verifyAuditChain(this.db);
    const report: AuditChainReport = {
      ok: result.ok,
      entries: result.entries,
      verified_up_to: result.verifiedUpTo,
      first_broken: result.firstBroken ?? null,
      checked_at: new Date().toISOString(),
    };
    this.latest = { report, atMs: Date.now() };
    return report;
  }
}
