import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conditionExpression, keyConditionExpression } from '../../../../../shared/adapters/dynamodb/expressions';
import {
  above,
  allOf,
  anyOf,
  atMost,
  attributeAbsent,
  attributeExists,
  beginsWith,
  below,
  between,
  equals,
  type Condition,
  type SortKeyCondition,
} from '../../../../../shared/adapters/dynamodb/expressions';
import {
  expressionProblems,
  type ExpressionRequest,
} from '../../../../../shared/adapters/dynamodb/expressions/expression-rules';
import { UpdateBuilder } from '../../../../../shared/adapters/dynamodb/expressions';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

// reserved words, names with `:`, `.`, `#` and spaces, and any other text
const attribute = fc.oneof(
  fc.constantFrom('version', 'size', 'name', 'seq:host-1', 'a.b', '#a0', ':v0', 'daily Key'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const value = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }));

const sortKeyCondition: fc.Arbitrary<SortKeyCondition> = fc.oneof(
  fc.tuple(attribute, value).map(([name, v]) => equals(name, v)),
  fc.tuple(attribute, value).map(([name, v]) => below(name, v)),
  fc.tuple(attribute, fc.string()).map(([name, prefix]) => beginsWith(name, prefix)),
  fc.tuple(attribute, value, value).map(([name, low, high]) => between(name, low, high)),
);

const condition: fc.Arbitrary<Condition> = fc.letrec<{ condition: Condition }>((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    attribute.map(attributeExists),
    attribute.map(attributeAbsent),
    fc.tuple(attribute, value).map(([name, v]) => atMost(name, v)),
    fc.tuple(attribute, value).map(([name, v]) => above(name, v)),
    sortKeyCondition,
    fc.array(tie('condition'), { minLength: 1, maxLength: 3 }).map((of) => allOf(...of)),
    fc.array(tie('condition'), { minLength: 1, maxLength: 3 }).map((of) => anyOf(...of)),
  ),
})).condition;

const action = fc.record({
  kind: fc.constantFrom('set', 'setIfAbsent', 'add', 'remove'),
  attribute: attribute.filter((name) => name !== 'PK' && name !== 'SK'),
  value,
});

/** The placeholders the request's expressions use, and those it declares. */
const placeholders = (request: ExpressionRequest) => {
  const text = [
    request.UpdateExpression,
    request.ConditionExpression,
    request.KeyConditionExpression,
    request.FilterExpression,
    request.ProjectionExpression,
  ].join(' ');
  return {
    used: [...new Set(text.match(/[#:][A-Za-z0-9_]+/g) ?? [])].sort(),
    declared: [
      ...Object.keys(request.ExpressionAttributeNames ?? {}),
      ...Object.keys(request.ExpressionAttributeValues ?? {}),
    ].sort(),
  };
};

/** Every placeholder used is declared and every one declared is used, and the validator finds nothing. */
const expectSound = (request: ExpressionRequest) => {
  const { used, declared } = placeholders(request);
  expect(used).toEqual(declared);
  expect(expressionProblems(request, [])).toEqual([]);
};

describe('the expression builder', () => {
  it(`declares exactly the placeholders of any update with any conditions (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(action, { selector: (a) => a.attribute, minLength: 1, maxLength: 6 }),
        fc.array(condition, { maxLength: 3 }),
        (actions, conditions) => {
          const update = new UpdateBuilder();
          for (const { kind, attribute: name, value: v } of actions)
            if (kind === 'remove') update.remove(name);
            else update[kind](name, v);
          for (const required of conditions) update.require(required);
          expectSound(update.build());
        },
      ),
      { seed: SEED },
    );
  });

  it(`declares exactly the placeholders of any condition (seed ${SEED})`, () => {
    fc.assert(
      fc.property(condition, (built) => expectSound(conditionExpression(built))),
      { seed: SEED },
    );
  });

  it(`declares exactly the placeholders of any key condition (seed ${SEED})`, () => {
    fc.assert(
      fc.property(attribute, value, fc.option(sortKeyCondition, { nil: undefined }), (key, partition, sortKey) =>
        expectSound(keyConditionExpression(key, partition, sortKey)),
      ),
      { seed: SEED },
    );
  });

  it('builds the key conditions and conditions the stores send', () => {
    expect(keyConditionExpression('PK', 'CAMPAIGN#1', beginsWith('SK', 'ACT'))).toEqual({
      KeyConditionExpression: '#a0 = :v0 AND begins_with(#a1, :v1)',
      ExpressionAttributeNames: { '#a0': 'PK', '#a1': 'SK' },
      ExpressionAttributeValues: { ':v0': 'CAMPAIGN#1', ':v1': 'ACT' },
    });
    expect(conditionExpression(attributeAbsent('PK'))).toEqual({
      ConditionExpression: 'attribute_not_exists(#a0)',
      ExpressionAttributeNames: { '#a0': 'PK' },
    });
    expect(conditionExpression(allOf(attributeExists('PK'), between('SK', 'A', 'B')))).toEqual({
      ConditionExpression: '(attribute_exists(#a0) AND #a1 BETWEEN :v0 AND :v1)',
      ExpressionAttributeNames: { '#a0': 'PK', '#a1': 'SK' },
      ExpressionAttributeValues: { ':v0': 'A', ':v1': 'B' },
    });
  });

  it('refuses an undefined value and an empty combination', () => {
    expect(() => conditionExpression(equals('a', undefined))).toThrow('cannot be undefined');
    expect(() => conditionExpression(anyOf())).toThrow('at least one condition');
  });
});
