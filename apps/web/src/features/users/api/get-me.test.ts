import { describe, expect, it } from 'vitest';
import { ROUTES } from '@hdp/contract';
import { GET_ME_PATH } from './get-me';

describe('getMe', () => {
  it('calls the contract path of the current user', () => {
    expect(GET_ME_PATH).toBe(ROUTES.getMe.path);
    expect(ROUTES.getMe.method).toBe('GET');
  });
});
