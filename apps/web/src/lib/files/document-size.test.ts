import { describe, expect, it } from 'vitest';
import { formatBytes, formatSize, UPLOAD_CAP_TEXT, uploadRefusal } from './document-size';

describe('document sizes', () => {
  it('reads sizes in decimal units, as the cap is stated', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(999)).toBe('999 bytes');
    expect(formatSize(1_500)).toBe('1.5 kB');
    expect(formatSize(20_000_000)).toBe('20 MB');
    expect(formatSize(123_456_789)).toBe('123 MB');
    expect(formatBytes(20_000_001)).toBe('20,000,001 bytes');
  });

  it('names the cap', () => {
    expect(UPLOAD_CAP_TEXT).toBe('20,000,000 bytes (20 MB)');
  });

  it('refuses a file one byte over the cap, naming the cap, and accepts one at the cap', () => {
    expect(uploadRefusal({ name: 'big.bin', size: 20_000_001 })).toBe(
      '"big.bin" is 20,000,001 bytes. A document can be at most 20,000,000 bytes (20 MB).',
    );
    expect(uploadRefusal({ name: 'ok.pdf', size: 20_000_000 })).toBeNull();
    expect(uploadRefusal({ name: 'empty.txt', size: 0 })).toBe('"empty.txt" is empty.');
  });
});
