import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASELINE_LOAD } from '../../infra/cdk/load-settings';
import { pushPathRows, pushPathTable } from '../../scripts/simulate/push-table';

describe("capacity.md's push path", () => {
  it('is the table npm run simulate prints: the stack sizing and the simulated run of the documented load', () => {
    const page = readFileSync('docs/capacity.md', 'utf8');
    const shown = /<!-- push path:[^\n]*-->\n([\s\S]*?)\n<!-- end of the push path -->/.exec(page)?.[1];
    expect(shown).toBe(pushPathTable(pushPathRows(BASELINE_LOAD)));
  });
});
