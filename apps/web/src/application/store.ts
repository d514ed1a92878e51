import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { authSlice } from '@/lib/auth/auth-slice';
import { dataExplorerSlice } from '@/features/data-explorer/slice';
import { workbenchRefusalsSlice } from '@/features/workbenches/refusals-slice';
import { workbenchWizardSlice } from '@/features/workbenches/slice';
import { baseApi } from '@/lib/api/base-api';
import { createApiErrorListener } from '@/lib/errors/api-error-handler';

const rootReducer = combineSlices(authSlice, dataExplorerSlice, workbenchWizardSlice, workbenchRefusalsSlice, baseApi);
export type RootState = ReturnType<typeof rootReducer>;

/** Builds the store: the API slice, the auth, data explorer and workbench wizard slices and the global handler of failed calls. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const errorListener = createApiErrorListener();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    // The error listener's middleware also takes listeners added later (product analytics).
    middleware: (getDefault) => getDefault().prepend(errorListener.middleware).concat(baseApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
