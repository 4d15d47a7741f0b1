import { describe, expect, it } from 'vitest';
import { answerMismatch, examplesOf } from './shell-examples';

describe('the shown answers of documentation examples', () => {
  it('cuts a block into commands, each with the answer under it and its status', () => {
    const page = ['text', '```sh', 'a=1', 'curl one \\', '  two', '# 401 {"x":', '#  1}', 'curl three', '```'];
    expect(examplesOf('p.md', page.join('\n'))).toEqual([
      { page: 'p.md', line: 3, command: 'a=1\ncurl one \\\n  two', expected: { status: 401, body: '{"x":1}' } },
      { page: 'p.md', line: 8, command: 'curl three' },
    ]);
    expect(examplesOf('p.md', '```console\nnpm ci\n```\n')).toEqual([]);
  });

  it('match the same keys and values, … standing for what varies', () => {
    expect(answerMismatch('{"a":1,"b":"x"}', '{"b":"x","a":1}')).toBeUndefined();
    expect(answerMismatch('{"a":1}', '{"a":2}')).toMatch(/\$\.a/);
    expect(answerMismatch('{"a":1}', '{"a":1,"b":2}')).toMatch(/not shown: b/);
    expect(answerMismatch('{"a":1,"b":2}', '{"a":1}')).toMatch(/\$\.b/);
    expect(answerMismatch('{"a":1,"…":"…"}', '{"a":1,"b":2}')).toBeUndefined();
    expect(answerMismatch('{"a":…}', '{"a":[1]}')).toBeUndefined();
    expect(answerMismatch('{"t":"abc…"}', '{"t":"abcdef"}')).toBeUndefined();
    expect(answerMismatch('{"t":"abc…"}', '{"t":"xbcdef"}')).toMatch(/\$\.t/);
    expect(answerMismatch('[1,…]', '[1,2,3]')).toBeUndefined();
    expect(answerMismatch('[1,2]', '[1,2,3]')).toMatch(/2 items, got 3/);
    expect(answerMismatch('{"a":"say \\"hi\\""}', '{"a":"say \\"hi\\""}')).toBeUndefined();
    expect(answerMismatch('/**/cb(…);', '/**/cb({"a":1});')).toBeUndefined();
    expect(answerMismatch('{"a":1}', 'not json')).toMatch(/shown JSON/);
  });
});
