import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from './import-graph';

const ROOT = join(import.meta.dirname, '../..');

describe('no import circle', () => {
  it('finds none among the files of the repository, type-only imports included', () => {
    const graph = importGraph(ROOT, ['shared', 'functions', 'infra', 'scripts', 'bench', 'test']);
    expect(graph.get('infra/cdk/alarm-conditions.ts')).toContain('infra/cdk/runbook-sections.ts');
    expect(importCircles(graph)).toEqual([]);
  });

  it('names every file of a circle, however long, and a file that imports itself', () => {
    const graph = new Map([
      ['alarms.ts', ['queue-alarms.ts', 'alarm-conditions.ts']],
      ['queue-alarms.ts', ['alarm-conditions.ts']],
      ['alarm-conditions.ts', ['alarms.ts']],
      ['runbook.ts', []],
      ['self.ts', ['self.ts']],
      ['leaf.ts', ['runbook.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['alarm-conditions.ts', 'alarms.ts', 'queue-alarms.ts'], ['self.ts']]);
  });
});
