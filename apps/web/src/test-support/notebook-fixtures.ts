import type { AcceleratorTypeList, MachineTypeList, Notebook, NotebookEnvironmentList, NotebookList, ZoneList } from '@hdp/contract';
import { ME } from '@/test-support/workbench-fixtures';
import type { RecordedCall } from '@/test-support/render';

export const WORKBENCH_ID = '6f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f';
export const NOTEBOOKS_PATH = `/api/v1/workbenches/${WORKBENCH_ID}/notebooks/`;

/** A notebook as the API lists it, its creator's; fields can be overridden. */
export function aNotebook(overrides: Partial<Notebook> = {}): Notebook {
  return {
    id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
    workbench_id: WORKBENCH_ID,
    name: 'Kidney outcomes',
    environment: 'python3-datascience',
    zone: 'australia-southeast1-a',
    machine_type: 'n1-standard-4',
    accelerator_type: null,
    accelerator_count: 0,
    status: 'RUNNING',
    status_reason: null,
    owner: { id: ME.id, email: ME.email, name: ME.name ?? ME.email },
    created_at: '2026-11-22T10:00:00.000Z',
    updated_at: '2026-11-22T10:00:05.000Z',
    abilities: { open: true, start: false, stop: true, delete: true },
    ...overrides,
  };
}

export function aNotebookList(notebooks: Notebook[], overrides: Partial<NotebookList> = {}): NotebookList {
  return { notebooks, total: notebooks.length, total_capped: false, runtime_available: true, runtime_detail: null, ...overrides };
}

export const ZONES: ZoneList = {
  zones: [
    { name: 'australia-southeast1-a', description: 'Sydney', is_default: true },
    { name: 'australia-southeast2-a', description: 'Melbourne', is_default: false },
  ],
};

const runtime = { cpu_limit: 1, memory_limit_mb: 1024, max_processes: 256 };
export const MACHINE_TYPES: MachineTypeList = {
  machine_types: [
    { name: 'n1-standard-2', description: 'Small', vcpus: 2, memory_gb: 7.5, is_default: false, runtime },
    { name: 'n1-standard-4', description: 'Standard', vcpus: 4, memory_gb: 15, is_default: true, runtime },
  ],
};

export const ACCELERATORS: AcceleratorTypeList = { accelerator_types: [{ name: 'nvidia-tesla-t4', description: 'NVIDIA T4', max_count: 4 }] };

export const ENVIRONMENTS: NotebookEnvironmentList = {
  environments: [
    { id: 'python3-datascience', name: 'Python 3 (pandas, scikit-learn)', description: '', language: 'python', packages: ['pandas'], is_default: true },
    { id: 'r-tidyverse', name: 'R (tidyverse)', description: '', language: 'r', packages: ['tidyverse'], is_default: false },
  ],
};

/** The compute catalogue's answers, or undefined for any other call. */
export function catalogueAnswer({ method, path }: RecordedCall): { body: unknown } | undefined {
  if (method !== 'GET') return undefined;
  const base = `/api/v1/workbenches/${WORKBENCH_ID}`;
  if (path === `${base}/zones/`) return { body: ZONES };
  if (path === `${base}/environments/`) return { body: ENVIRONMENTS };
  if (/\/zone\/[^/]+\/machine-types\/$/.test(path)) return { body: MACHINE_TYPES };
  if (/\/zone\/[^/]+\/accelerator-types\/$/.test(path)) return { body: ACCELERATORS };
  return undefined;
}
