import { combineSlices, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { authSlice } from '@/lib/auth/auth-slice';
import { dataExplorerSlice } from '@/features/data-explorer/slice';
import { workbenchRefusalsSlice } from '@/features/workbenches/refusals-slice';
import { workbenchWizardSlice } from '@/features/workbenches/slice';
import { baseApi } from '@/lib/api/base-api';
import { createApiErrorListener } from '@/lib/errors/api-error-handler';
import type { StoreExtra } from '@/lib/api/base-query';

const rootReducer = combineSlices(authSlice, dataExplorerSlice, workbenchWizardSlice, workbenchRefusalsSlice, baseApi);
export type RootState = ReturnType<typeof rootReducer>;

/**
 * Builds the store: the API slice, the auth, data explorer and workbench wizard slices and the
 * global handler of failed calls. `extra.serverApi` makes a store for the web server, which reads a
 * page's first data before rendering it (`lib/api/server-queries.ts`).
 */
export function makeStore(preloadedState?: Partial<RootState>, extra: StoreExtra = {}) {
  // A store on the web server reports nothing: what fails there is read again by the browser,
  // which reports it. Its listener middleware is there for the same shape, and stays empty.
  const errorListener = extra.serverApi ? createListenerMiddleware() : createApiErrorListener();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    // The error listener's middleware also takes listeners added later (product analytics).
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).prepend(errorListener.middleware).concat(baseApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
