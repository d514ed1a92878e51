import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { authSlice } from '@/features/auth/slice';
import { dataExplorerSlice } from '@/features/data-explorer/slice';
import { baseApi } from '@/lib/api/base-api';
import { createApiErrorListener } from '@/lib/errors/api-error-handler';
import { createAnalyticsListener } from '@/lib/analytics/analytics-listener';

const rootReducer = combineSlices(authSlice, dataExplorerSlice, baseApi);
export type RootState = ReturnType<typeof rootReducer>;

/** Builds the store: the API slice, the auth and data explorer slices and the global handler of failed calls. */
export function makeStore(preloadedState?: Partial<RootState>) {
  const errorListener = createApiErrorListener();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => {
      const chain = getDefault().prepend(errorListener.middleware);
      // Without an analytics key (fixed at build time) there is nothing to listen for, and the
      // listener is left out of the bundle. It adds no dispatch overload the app uses.
      const withAnalytics = process.env.NEXT_PUBLIC_POSTHOG_KEY ? (chain.prepend(createAnalyticsListener().middleware) as unknown as typeof chain) : chain;
      return withAnalytics.concat(baseApi.middleware);
    },
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
