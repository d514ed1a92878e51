import fs from 'node:fs/promises';
import { OUTPUT_FILE_TYPES, type CheckFinding, type CheckVerdict } from '@hdp/contract';
import { appendAuditEntry } from '../audit/audit-trail';
import type { OutputSettings } from '../config';
import type { DbOrTx } from '../db/database';
import type { JobHandler } from '../jobs/job-worker';
import type { FileStore } from '../storage/file-store';
import { checkContextFor } from './released-data';
import { releaseRepository, type ReleaseFileRow } from './release-repository';
import { CHECKS_VERSION, checkOtherFile, checkTableFile, parseTable, type CheckParameters } from './table-checks';

/** The job kind of the automatic checks, queued when a file (or a new version of it) is added. */
export const OUTPUT_CHECKS_JOB = 'output-checks';
export interface OutputChecksPayload {
  fileId: string;
  version: number;
}

/** The parameters a file is checked with: the server's settings and what the file declares. */
export function checkParametersOf(settings: OutputSettings, file: Pick<ReleaseFileRow, 'magnitudeColumn'>): CheckParameters {
  return {
    min_count: settings.minCount,
    zeros_disclosive: settings.zerosDisclosive,
    rounding_base: settings.roundingBase,
    dominance_p: settings.dominanceP,
    dominance_n: settings.dominanceN,
    dominance_k: settings.dominanceK,
    max_table_rows: settings.maxTableRows,
    magnitude_column: file.magnitudeColumn,
  };
}

export interface CheckResult {
  verdict: CheckVerdict;
  findings: CheckFinding[];
  parameters: Record<string, unknown>;
}

/** Runs every check that applies to one stored file of a request. */
export async function runChecks(db: DbOrTx, store: FileStore, settings: OutputSettings, file: ReleaseFileRow, workbenchId: string): Promise<CheckResult> {
  const parameters = checkParametersOf(settings, file);
  const context = await checkContextFor(db, store, workbenchId, file.requestId);
  const extension = file.name.slice(file.name.lastIndexOf('.')).toLowerCase();
  const table = OUTPUT_FILE_TYPES[extension]?.table;
  if (!table) {
    const outcome = await checkOtherFile(file.sha256, context);
    return { ...outcome, parameters: { ...parameters, released_data_files: context.releasedData.length } };
  }
  const text = await fs.readFile(store.localPath(file.storageKey), 'utf8');
  let parsed;
  try {
    parsed = parseTable(text, table === 'csv' ? ',' : '\t');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      verdict: 'REVIEW',
      findings: [{ check: 'unreadable_table', verdict: 'REVIEW', message: `The file could not be read as a table (${reason}); a checker looks at it.`, cells: [] }],
      parameters: { ...parameters },
    };
  }
  const outcome = await checkTableFile(parsed, file.sha256, parameters, context);
  return { verdict: outcome.verdict, findings: outcome.findings, parameters: { ...parameters, ...outcome.compared } };
}

/** The automatic checks as a job of the one queue: the result and its audit entry land with the job's end. */
export function outputChecksHandler(deps: { store: FileStore; settings: OutputSettings }): JobHandler {
  return {
    kind: OUTPUT_CHECKS_JOB,
    concurrency: 2,
    async run(context) {
      const { fileId, version } = context.job.payload as unknown as OutputChecksPayload;
      const file = await releaseRepository.findFileById(context.db, fileId);
      if (!file || file.version !== version) {
        // Removed or replaced since: the newer version has its own job.
        await context.finish('SUCCEEDED', async () => undefined);
        return;
      }
      const request = await releaseRepository.find(context.db, file.requestId);
      if (!request) {
        await context.finish('SUCCEEDED', async () => undefined);
        return;
      }
      const result = await runChecks(context.db, deps.store, deps.settings, file, request.workbenchId);
      await context.finish('SUCCEEDED', async (tx) => {
        const recorded = await releaseRepository.recordChecks(tx, fileId, version, {
          checkState: 'DONE',
          checkVerdict: result.verdict,
          checkFindings: result.findings,
          checkParameters: result.parameters,
          checksVersion: CHECKS_VERSION,
          checkedAt: new Date(),
          checkError: null,
        });
        if (!recorded) return;
        await appendAuditEntry(tx, { actorEmail: 'system (output checks)' }, {
          eventType: 'OUTPUT_CHECKS_FINISHED',
          outcome: 'SUCCESS',
          message: `automatic checks labelled "${file.name}" (version ${version}) ${result.verdict}`,
          resourceType: 'release_request',
          resourceId: file.requestId,
          details: {
            file_id: fileId,
            version,
            sha256: file.sha256,
            verdict: result.verdict,
            checks: result.findings.map((f) => ({ check: f.check, verdict: f.verdict, cells: f.cells.length })),
            parameters: result.parameters,
            checks_version: CHECKS_VERSION,
          },
        });
      });
    },
    async failed(tx, job, reason) {
      const { fileId, version } = job.payload as unknown as OutputChecksPayload;
      await releaseRepository.recordChecks(tx, fileId, version, { checkState: 'ERROR', checkError: reason, checkedAt: new Date(), checksVersion: CHECKS_VERSION });
      await appendAuditEntry(tx, { actorEmail: 'system (output checks)' }, {
        eventType: 'OUTPUT_CHECKS_FINISHED',
        outcome: 'FAILURE',
        message: `automatic checks of file ${fileId} (version ${version}) could not run`,
        resourceType: 'release_file',
        resourceId: fileId,
        details: { version, reason },
      });
    },
    describeError: () => 'The automatic checks could not read the file.',
  };
}
