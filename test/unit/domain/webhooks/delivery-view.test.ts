import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessLevel,
  permissionLevel,
  updatableEntity,
  type Entity,
  type Grants,
} from '../../../../shared/domain/access';
import { ExactNumber, unitScale, unitsFromCap } from '../../../../shared/domain/delivery/exact-units';
import { HISTORY_OPERATIONS, visibleEntry, type HistoryEntry } from '../../../../shared/domain/history/limit-history';
import { LEVELS, ancestorsOf, entityName, type LevelDefinition } from '../../../../shared/domain/levels';
import { levelPolicy } from '../../../../shared/domain/limits/level-policy';
import {
  DEMAND_CAP_PERMISSIONS,
  GENERAL_PERMISSIONS,
  INVENTORY_CAP_PERMISSIONS,
  PERMISSION_LEVELS,
} from '../../../../shared/domain/permissions';
import { entityStopReasons, type Visibility } from '../../../../shared/domain/serving/serving-decision';
import { deliveryView, type DeliveryView } from '../../../../shared/domain/webhooks/delivery-view';
import { webhookHeaders } from '../../../../shared/domain/webhooks/webhook-signature';
import { exactJson } from '../../../../shared/support/exact-json';
import { webhookContractProblems } from '../../../support/webhook-contract';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const ENTITIES: Record<string, Entity> = {
  ADVERTISER: { type: 'ADVERTISER', id: 10, deleted: false, active: true },
  CAMPAIGN: { type: 'CAMPAIGN', id: 100, deleted: false, active: true, advertiserId: 10 },
  BANNER: { type: 'BANNER', id: 1000, deleted: false, active: true, campaignId: 100, advertiserId: 10 },
  SITE: { type: 'SITE', id: 50, deleted: false, active: true },
  PLACEMENT: { type: 'PLACEMENT', id: 500, deleted: false, active: true, siteId: 50 },
};

const SECRETS = [{ value: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2XbDrjG3Rnw=', createdAt: NOW.toISOString() }];

/** What the view breaks of the OpenAPI document's webhooks once rendered and signed as the dispatcher sends it. */
const contractProblems = (view: DeliveryView) => {
  const body = exactJson(view.payload);
  return webhookContractProblems({
    path: '/',
    headers: webhookHeaders({ id: view.webhookId, body }, SECRETS, NOW),
    body,
  });
};

/** A subscriber: any level of every permission, a share on the entity, on an ancestor or none, the entity as stored. */
const subscriberOf = (level: LevelDefinition) => {
  const entity = ENTITIES[level.entityType]!;
  const covering = [entity, ...ancestorsOf(entity.type, entity)].map((named) => entityName(named.type, named.id));
  const levels = (names: readonly string[]) =>
    fc.record(Object.fromEntries(names.map((name) => [name, fc.constantFrom(...PERMISSION_LEVELS, undefined)])));
  return fc
    .record({
      permissions: levels([...GENERAL_PERMISSIONS, ...DEMAND_CAP_PERMISSIONS]),
      inventoryPermissions: levels(INVENTORY_CAP_PERMISSIONS),
      share: fc.option(fc.tuple(fc.constantFrom(...covering), fc.constantFrom('UPDATE' as const, 'READ' as const))),
      stored: fc.constantFrom('present', 'deleted', 'absent'),
    })
    .map(({ permissions, inventoryPermissions, share, stored }) => {
      const defined = (record: Record<string, string | undefined>) =>
        Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<string, string>;
      const grants: Grants = {
        userId: 7,
        permissions: defined(permissions),
        inventoryPermissions: defined(inventoryPermissions),
        shares: new Map(share ? [share] : []),
      };
      const current = stored === 'absent' ? undefined : { ...entity, deleted: stored === 'deleted' };
      return { grants, entity: current };
    });
};

/** What status.do answers this subscriber about the entity once the crossing stands, or undefined when refused. */
const statusReasons = (level: LevelDefinition, grants: Grants, entity: Entity | undefined, crossing: Crossing) => {
  const policy = levelPolicy(level.level);
  if (!updatableEntity(grants, level.entityType, entity).allowed || !policy.read(grants).allowed) return undefined;
  const cap = level.grid.byName.get(crossing.cap)!;
  const units = unitsFromCap(crossing.capValue, unitScale(cap.metric)) + BigInt(crossing.over);
  const visibility: Visibility = {
    entity: (candidate) => accessLevel(grants, candidate) !== undefined,
    cap: (candidateCap) => policy.capPermission(grants, candidateCap) !== 'DISABLED',
    perAction: permissionLevel(grants, policy.perActionPermission) !== 'DISABLED',
  };
  const perAction = crossing.actionId !== undefined;
  const state = {
    entity: entity!,
    grid: level.grid,
    limit: perAction
      ? undefined
      : {
          id: 1,
          version: 1,
          caps: { [cap.name]: crossing.capValue },
          evenPacing: false,
          useLocalTime: false,
          timezoneOffset: 0,
        },
    counters: perAction ? {} : { [cap.period]: { [cap.metric]: units } },
    noConversion: { impressionsSinceConversion: 0n },
    perActionEnabled: true,
    perAction: perAction
      ? [
          {
            actionId: crossing.actionId!,
            dailyConversionsLimit: cap.period === 'daily' ? crossing.capValue : 0,
            totalConversionsLimit: cap.period === 'total' ? crossing.capValue : 0,
            dailyConversions: cap.period === 'daily' ? units : 0n,
            totalConversions: cap.period === 'total' ? units : 0n,
          },
        ]
      : [],
  };
  return { reasons: entityStopReasons(state, NOW, visibility), scale: unitScale(cap.metric), units };
};

type Crossing = { cap: string; capValue: number; over: number; actionId?: number };

const crossingOf = (level: LevelDefinition): fc.Arbitrary<Crossing> =>
  fc.oneof(
    fc.record({
      cap: fc.constantFrom(...level.grid.caps.map((cap) => cap.name)),
      capValue: fc.integer({ min: 1, max: 100_000 }),
      over: fc.nat(50),
    }),
    fc.record({
      cap: fc.constantFrom('dailyConversionsLimit', 'totalConversionsLimit'),
      capValue: fc.integer({ min: 1, max: 100_000 }),
      over: fc.nat(50),
      actionId: fc.integer({ min: 1, max: 99 }),
    }),
  );

describe(`what a delivery tells its subscriber (fast-check seed ${SEED})`, () => {
  it('a LimitReached tells no more than status.do would: nothing when refused, the cap or only `hidden`, as documented', () => {
    console.log(`delivery-view property seed: ${SEED}`);
    fc.assert(
      fc.property(
        fc
          .constantFrom(...LEVELS)
          .chain((level) => fc.tuple(fc.constant(level), subscriberOf(level), crossingOf(level))),
        ([level, { grants, entity }, crossing]) => {
          const name = entityName(level.entityType, ENTITIES[level.entityType]!.id);
          const cap = level.grid.byName.get(crossing.cap)!;
          const read = statusReasons(level, grants, entity, crossing);
          const units = unitsFromCap(crossing.capValue, unitScale(cap.metric)) + BigInt(crossing.over);
          const view = deliveryView(
            {
              kind: 'limit.reached',
              event: {
                id: `${name}/${crossing.actionId ? `ACTION#${crossing.actionId}/` : ''}${crossing.cap}=${crossing.capValue}/T`,
                entity: name,
                entityType: level.entityType,
                entityId: ENTITIES[level.entityType]!.id,
                cap: crossing.cap,
                capValue: crossing.capValue,
                counter: ExactNumber.of(units, unitScale(cap.metric)),
                bucket: 'T',
                at: NOW.toISOString(),
                ...(crossing.actionId !== undefined ? { actionId: crossing.actionId } : {}),
              },
            },
            { grants, entity },
          );
          if (read === undefined) {
            expect(view).toBeUndefined();
            return;
          }
          expect(read.reasons).toContainEqual(view!.payload.data);
          expect(contractProblems(view!)).toEqual([]);
          if ((view!.payload.data as { hidden?: boolean }).hidden === true) {
            const told = JSON.stringify(view);
            expect(told).not.toContain(crossing.cap);
            expect(told).not.toContain(`=${crossing.capValue}`);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a LimitChanged tells no more than history.do would: the entry as it shows it, or nothing, as documented', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...LEVELS)
          .chain((level) =>
            fc.tuple(
              fc.constant(level),
              subscriberOf(level),
              fc.subarray([...level.grid.caps.map((cap) => cap.name), 'startDate', 'evenPacing']),
              fc.constantFrom(...HISTORY_OPERATIONS),
            ),
          ),
        ([level, { grants, entity }, changed, operation]) => {
          const policy = levelPolicy(level.level);
          const entry: HistoryEntry = {
            at: NOW.toISOString(),
            operation,
            by: { userId: 3, username: 'ops', method: 'API_KEY' },
            fields: Object.fromEntries(changed.map((field, index) => [field, { from: index, to: index + 1 }])),
          };
          const entityId = ENTITIES[level.entityType]!.id;
          const changeId = `${entityName(level.entityType, entityId)}#V#000000000003`;
          const view = deliveryView(
            { kind: 'limit.changed', event: { entityType: level.entityType, entityId, changeId, change: entry } },
            { grants, entity },
          );
          const readable = updatableEntity(grants, level.entityType, entity).allowed && policy.read(grants).allowed;
          const shown = readable
            ? visibleEntry(entry, {
                grid: policy.grid,
                cap: (cap) => policy.capPermission(grants, cap) !== 'DISABLED',
                perAction: permissionLevel(grants, policy.perActionPermission) !== 'DISABLED',
              })
            : undefined;
          if (shown === undefined) {
            expect(view).toBeUndefined();
            return;
          }
          expect(view?.payload.data).toEqual({
            entity: entityName(level.entityType, entityId),
            changeId,
            change: shown,
          });
          expect(contractProblems(view!)).toEqual([]);
          const hiddenCaps = level.grid.caps.filter((cap) => policy.capPermission(grants, cap) === 'DISABLED');
          for (const cap of hiddenCaps) expect(JSON.stringify(view)).not.toContain(`"${cap.name}"`);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
