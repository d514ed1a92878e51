import { z } from 'zod';
import { ListQuery, Timestamp } from './common';

/** Whether an upload was scanned for malware, and with what result. */
export const SCAN_STATUSES = ['CLEAN', 'NOT_SCANNED'] as const;

export const Document = z
  .object({
    id: z.uuid(),
    name: z.string(),
    content_type: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    scan_status: z.enum(SCAN_STATUSES),
    owner: z.object({ id: z.uuid(), email: z.string() }),
    created_at: Timestamp,
  })
  .meta({ id: 'Document' });
export type Document = z.infer<typeof Document>;

export const DOCUMENT_ORDERS = ['created_at', '-created_at', 'name', '-name', 'size_bytes', '-size_bytes'] as const;
export const DocumentListQuery = ListQuery.extend({ order_by: z.enum(DOCUMENT_ORDERS).default('-created_at') });
