import { z } from 'zod';
import { NOTEBOOK_DEFAULTS, NOTEBOOK_LIMITS, NOTEBOOK_STATUSES } from '../notebook-lifecycle';
import { listOf, ListQuery } from './common';

/**
 * notebookCreate: a name and what to run it on, picked from the workbench's compute catalogue
 * (zones, machine types, accelerator types, environments); checked against it by the API.
 */
export const NotebookCreate = z
  .object({
    name: z.string().trim().min(1).max(NOTEBOOK_LIMITS.nameMaxLength),
    environment: z.string().trim().min(1).max(100),
    zone: z.string().trim().min(1).max(100).default(NOTEBOOK_DEFAULTS.zone),
    machine_type: z.string().trim().min(1).max(100).default(NOTEBOOK_DEFAULTS.machineType),
    accelerator_type: z.string().trim().min(1).max(100).nullish(),
    accelerator_count: z.number().int().min(0).max(NOTEBOOK_LIMITS.maxAcceleratorCount).default(0),
  })
  .refine((body) => (body.accelerator_count > 0) === Boolean(body.accelerator_type), {
    message: 'give accelerator_type and an accelerator_count of at least 1 together, or neither',
    path: ['accelerator_count'],
  })
  .meta({ id: 'NotebookCreate' });
export type NotebookCreate = z.infer<typeof NotebookCreate>;

export const Notebook = z
  .object({
    id: z.uuid(),
    workbench_id: z.uuid(),
    name: z.string(),
    environment: z.string(),
    zone: z.string(),
    machine_type: z.string(),
    accelerator_type: z.string().nullable(),
    accelerator_count: z.number().int(),
    status: z.enum(NOTEBOOK_STATUSES),
    /** Why it is FAILED (or how it came to be STOPPED without a stop). */
    status_reason: z.string().nullable(),
    owner: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
    created_at: z.iso.datetime({ offset: true }),
    updated_at: z.iso.datetime({ offset: true }),
    /** What the caller may do with it, for the buttons the web app shows. */
    abilities: z.object({ open: z.boolean(), start: z.boolean(), stop: z.boolean(), delete: z.boolean() }),
  })
  .meta({ id: 'Notebook' });
export type Notebook = z.infer<typeof Notebook>;

export const NOTEBOOK_ORDERS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at', 'status', '-status'] as const;

export const NotebookListQuery = ListQuery.extend({ order_by: z.enum(NOTEBOOK_ORDERS).default('-created_at') });

export const NotebookList = listOf('notebooks', Notebook)
  .extend({
    /** Whether this deployment can run notebooks now; when not, `runtime_detail` says what to install. */
    runtime_available: z.boolean(),
    runtime_detail: z.string().nullable(),
  })
  .meta({ id: 'NotebookList' });
export type NotebookList = z.infer<typeof NotebookList>;

/**
 * The open call's answer: a single-use ticket, valid until `expires_at`, that the web app POSTs as
 * the form field `ticket` to `url` (the notebook's own origin) from its own page. The notebook
 * accepts it only from the web app's origin, so a link or a page elsewhere cannot use it.
 */
export const NotebookOpen = z
  .object({ url: z.url(), ticket: z.string().min(32).max(128), expires_at: z.iso.datetime({ offset: true }) })
  .meta({ id: 'NotebookOpen' });
export type NotebookOpen = z.infer<typeof NotebookOpen>;
