import type { AcceleratorTypeList, MachineTypeList, NotebookEnvironmentList, ZoneList } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';

export const ZONES_PATH = contractPath('listWorkbenchZones', '/api/v1/workbenches/{workbenchId}/zones/');
export const MACHINE_TYPES_PATH = contractPath('listMachineTypes', '/api/v1/workbenches/{workbenchId}/zone/{zone}/machine-types/');
export const ACCELERATOR_TYPES_PATH = contractPath('listAcceleratorTypes', '/api/v1/workbenches/{workbenchId}/zone/{zone}/accelerator-types/');
export const ENVIRONMENTS_PATH = contractPath('listEnvironments', '/api/v1/workbenches/{workbenchId}/environments/');

/** What a notebook can run on in a workbench: zones, machine types and accelerators per zone, environments. */
export const computeCatalogueApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listWorkbenchZones: build.query<ZoneList, string>({
      query: (workbenchId) => ({ url: pathOf(ZONES_PATH, { workbenchId }), method: 'GET' }),
    }),
    listMachineTypes: build.query<MachineTypeList, { workbenchId: string; zone: string }>({
      query: (args) => ({ url: pathOf(MACHINE_TYPES_PATH, { ...args }), method: 'GET' }),
    }),
    listAcceleratorTypes: build.query<AcceleratorTypeList, { workbenchId: string; zone: string }>({
      query: (args) => ({ url: pathOf(ACCELERATOR_TYPES_PATH, { ...args }), method: 'GET' }),
    }),
    listEnvironments: build.query<NotebookEnvironmentList, string>({
      query: (workbenchId) => ({ url: pathOf(ENVIRONMENTS_PATH, { workbenchId }), method: 'GET' }),
    }),
  }),
});

export const { useListWorkbenchZonesQuery, useListMachineTypesQuery, useListAcceleratorTypesQuery, useListEnvironmentsQuery } = computeCatalogueApi;
