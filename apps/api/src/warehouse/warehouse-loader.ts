import type { AppServices } from '../app-services';
import { recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { omopDirectoryDataset } from './omop-importer';
import { syntheticDataset } from './synthetic-generator';
import type { LoadReport } from './warehouse-engine';

/** What to load: a directory of OMOP tables, or a synthetic dataset. */
export type LoadRequest = { kind: 'omop'; directory: string } | { kind: 'synthetic'; persons: number; seed: number };

/** Loads a dataset into the warehouse (swapped in when complete) and audits it, success or failure. */
export async function loadWarehouse(services: Pick<AppServices, 'warehouse' | 'db'>, request: LoadRequest, context: AuditContext): Promise<LoadReport> {
  const source = request.kind === 'omop' ? `OMOP directory ${request.directory}` : `synthetic: ${request.persons} persons, seed ${request.seed}`;
  try {
    const builder = request.kind === 'omop' ? omopDirectoryDataset(request.directory) : syntheticDataset(request);
    const report = await services.warehouse.load(source, builder);
    await recordAuditEvent(services.db, context, {
      eventType: 'WAREHOUSE_LOADED',
      outcome: 'SUCCESS',
      message: `Warehouse loaded from ${source} (${report.rows.person ?? 0} persons)`,
      resourceType: 'warehouse',
      details: { source, rows: report.rows, seconds: Math.round(report.seconds * 10) / 10 },
    });
    return report;
  } catch (error) {
    await recordAuditEvent(services.db, context, {
      eventType: 'WAREHOUSE_LOADED',
      outcome: 'FAILURE',
      message: `Warehouse load from ${source} failed; the previous data is kept`,
      resourceType: 'warehouse',
      details: { source, reason: (error as Error).message.slice(0, 500) },
    });
    throw error;
  }
}
