import { z } from 'zod';
import { listOf, Timestamp } from './common';

/**
 * A hold on a user's notebooks: placed when more data reached their browser from notebooks in a
 * day than the hard limit allows; until an administrator lifts it, the user may not start or open
 * notebooks (docs/outputs.md).
 */
export const NotebookHold = z
  .object({
    id: z.uuid(),
    user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    notebook_id: z.uuid(),
    workbench_id: z.uuid(),
    bytes: z.number().int(),
    limit_bytes: z.number().int(),
    created_at: Timestamp,
    lifted_at: Timestamp.nullable(),
    lifted_by: z.uuid().nullable(),
  })
  .meta({ id: 'NotebookHold' });
export type NotebookHold = z.infer<typeof NotebookHold>;

export const NotebookHoldList = listOf('holds', NotebookHold).meta({ id: 'NotebookHoldList' });
export type NotebookHoldList = z.infer<typeof NotebookHoldList>;
