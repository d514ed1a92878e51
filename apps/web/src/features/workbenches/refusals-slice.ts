import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RefusalKind } from '@hdp/contract/workbench-rules';

/** One part of a create or an update that the API did not apply, named as the user picked it. */
export interface RefusedPart {
  kind: RefusalKind;
  id: string;
  name: string;
  reason: string;
}

/** What the last create or update of each workbench left out (a 418 answer), until the user dismisses it. */
export const workbenchRefusalsSlice = createSlice({
  name: 'workbenchRefusals',
  initialState: {} as Record<string, RefusedPart[]>,
  reducers: {
    refusalsReceived(state, action: PayloadAction<{ workbenchId: string; refused: RefusedPart[] }>) {
      state[action.payload.workbenchId] = action.payload.refused;
    },
    refusalsDismissed(state, action: PayloadAction<string>) {
      delete state[action.payload];
    },
  },
  selectors: {
    selectRefusals: (state, workbenchId: string) => state[workbenchId],
  },
});

export const { refusalsReceived, refusalsDismissed } = workbenchRefusalsSlice.actions;
export const { selectRefusals } = workbenchRefusalsSlice.selectors;
