import { describe, expect, it } from 'vitest';
import { requestedQueryId } from './use-query-from-url';

describe('the saved query a link opens', () => {
  it('is the queryId of the address bar', () => {
    expect(requestedQueryId({ queryId: '5B0E8A4E-8D0A-4F43-9D7C-1B2E3F4A5B6C' })).toBe('5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c');
    expect(requestedQueryId({ queryId: ['5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c', 'x'] })).toBe('5b0e8a4e-8d0a-4f43-9d7c-1b2e3f4a5b6c');
  });

  it('is nothing without one, or with something that is not an id', () => {
    expect(requestedQueryId({})).toBeNull();
    expect(requestedQueryId({ queryId: '5b0e' })).toBeNull();
    expect(requestedQueryId({ queryId: 'not-an-id' })).toBeNull();
  });
});
