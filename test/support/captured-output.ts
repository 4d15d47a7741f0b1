import { afterEach, beforeEach, vi } from 'vitest';

/** Everything the process writes to stdout and stderr during each test of the file, kept instead of printed. */
export const captureOutput = (): (() => string) => {
  let written = '';
  beforeEach(() => {
    written = '';
    const capture = (chunk: unknown) => {
      written += String(chunk);
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return () => written;
};
