import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Auth state: the id token every API call sends. The session (next-auth) is its source. */
export interface AuthState {
  idToken: string | null;
}

const initialState: AuthState = { idToken: null };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    idTokenChanged(state, action: PayloadAction<string | null>) {
      state.idToken = action.payload;
    },
  },
  selectors: {
    selectIdToken: (state) => state.idToken,
  },
});

export const { idTokenChanged } = authSlice.actions;
export const { selectIdToken } = authSlice.selectors;
