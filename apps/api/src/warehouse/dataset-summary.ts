import type { Dataset, DatasetDomain } from '@hdp/contract';
import type { Database } from '../db/database';
import { runCohortQuery, type DisclosureSettings } from './cohort-results';
import { belowThreshold } from './suppression';
import type { WarehouseEngine } from './warehouse-engine';

/** The clinical domains the home page lists, in the order it lists them. */
export const DATASET_DOMAINS: readonly { domain: string; label: string; table: string }[] = [
  { domain: 'Condition', label: 'Conditions', table: 'condition_occurrence' },
  { domain: 'Drug', label: 'Drug exposures', table: 'drug_exposure' },
  { domain: 'Procedure', label: 'Procedures', table: 'procedure_occurrence' },
  { domain: 'Measurement', label: 'Measurements', table: 'measurement' },
  { domain: 'Observation', label: 'Observations', table: 'observation' },
  { domain: 'Visit', label: 'Visits', table: 'visit_occurrence' },
  { domain: 'Death', label: 'Deaths', table: 'death' },
];

/** The CDM version the warehouse stores (v5.3 sources are read into v5.4 tables). */
export const CDM_VERSION = '5.4';

/** A record count as released: from 1 to below the threshold it is withheld ("< 20"). */
export function releasedRecords(records: number, threshold: number): Pick<DatasetDomain, 'records' | 'records_display'> {
  const small = records > 0 && records < threshold;
  return { records: small ? null : records, records_display: small ? belowThreshold(threshold) : String(records) };
}

/** Summaries by warehouse, for the dataset now served (a load swaps the schema, which renews it). */
const cache = new WeakMap<WarehouseEngine, { schema: string; threshold: number; summary: Promise<Dataset> }>();

/**
 * The dataset in use. The person count is exactly what a query with no criteria releases (the same
 * perturbation and suppression); the record counts per domain are withheld below the threshold.
 * Computed once per loaded dataset.
 */
export function summariseDataset(warehouse: WarehouseEngine, db: Database, settings: DisclosureSettings & { timeoutMs: number }): Promise<Dataset> {
  const state = warehouse.state;
  if (!state) {
    return Promise.resolve({
      loaded: false,
      source: null,
      loaded_at: null,
      cdm_version: CDM_VERSION,
      person_count: null,
      person_count_display: '0',
      suppression_threshold: settings.threshold,
      perturbed: settings.perturbation.maxChange > 0,
      domains: [],
    });
  }
  const cached = cache.get(warehouse);
  if (cached && cached.schema === state.schema && cached.threshold === settings.threshold) return cached.summary;
  const summary = (async (): Promise<Dataset> => {
    // Released through the one path like any answer: the ledger keeps it (the same for everyone, so no one's).
    const release = { db, kind: 'dataset-summary', reference: null, audit: {} };
    const everyone = await runCohortQuery(warehouse, { combinator: 'and', rules: [] }, { ...settings, state, release });
    const domains = await Promise.all(
      DATASET_DOMAINS.map(async ({ domain, label, table }) => {
        const [row] = await warehouse.query(`SELECT COUNT(*) AS n FROM "${state.schema}"."${table}"`, [], { timeoutMs: settings.timeoutMs });
        return { domain, label, table, ...releasedRecords(Number(row?.n ?? 0), settings.threshold) };
      }),
    );
    return {
      loaded: true,
      source: state.source,
      loaded_at: state.loadedAt.toISOString(),
      cdm_version: CDM_VERSION,
      person_count: everyone.person_count,
      person_count_display: everyone.person_count_display,
      suppression_threshold: everyone.suppression_threshold,
      perturbed: everyone.perturbed,
      domains,
    };
  })();
  cache.set(warehouse, { schema: state.schema, threshold: settings.threshold, summary });
  // A failure is not kept: the next call tries again.
  summary.catch(() => {
    if (cache.get(warehouse)?.summary === summary) cache.delete(warehouse);
  });
  return summary;
}
