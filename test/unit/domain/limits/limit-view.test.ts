import { describe, expect, it } from 'vitest';
import type { PermissionLevel } from '../../../../shared/domain/permissions';
import { DEMAND_GRID, SUPPLY_GRID, type CapDefinition } from '../../../../shared/domain/limits/cap-grid';
import type { LimitRecord } from '../../../../shared/domain/limits/limit-record';
import { renderLimit } from '../../../../shared/domain/limits/limit-view';
import { exactJson } from '../../../../shared/support/exact-json';

/** The read shape as a client receives it: through JSON, where counters are exact numbers. */
const render = (...args: Parameters<typeof renderLimit>) => JSON.parse(exactJson(renderLimit(...args))) as unknown;

describe('the read shape', () => {
  const record: LimitRecord = {
    id: 7,
    version: 3,
    caps: { dailyImpressionsLimit: 100, dailyBudgetLimit: 2.5, totalClicksLimit: 0 },
    startDate: Date.UTC(2026, 10, 22, 10, 30),
    evenPacing: true,
    useLocalTime: true,
    timezoneOffset: 90,
  };
  const view = { grid: DEMAND_GRID, permissionOf: () => 'READONLY' as PermissionLevel, reportHidden: false };

  it('answers limitsSet false with the entity id when there is no record', () => {
    expect(render({ idField: 'campaignId', entityId: 100, counters: {}, policy: view })).toEqual({
      campaignId: 100,
      limitsSet: false,
    });
  });

  it('shows set caps with their counters, leaves out caps never set, and shows dates in UTC', () => {
    expect(
      render({
        idField: 'campaignId',
        entityId: 100,
        record,
        counters: { daily: { impressions: 40n, budget: 1250n } },
        policy: view,
      }),
    ).toEqual({
      campaignId: 100,
      id: 7,
      limitsSet: true,
      startDate: '2026-11-22-10-30',
      evenPacing: true,
      useLocalTime: true,
      dailyImpressionsLimit: 100,
      dailyImpressions: 40,
      dailyBudgetLimit: 2.5,
      dailyBudget: 1.25,
      totalClicksLimit: 0,
      totalClicks: 0,
    });
  });

  it('renders dates in the offset a read asks for when the limit is on local time, echoing it', () => {
    const onLocalTime = { idField: 'campaignId', entityId: 100, record, counters: {}, policy: view, displayOffset: 90 };
    expect(render(onLocalTime)).toMatchObject({
      startDate: '2026-11-22-12-00',
      timezoneOffset: 90,
    });
    expect(render({ ...onLocalTime, record: { ...record, useLocalTime: false } })).toMatchObject({
      startDate: '2026-11-22-10-30',
    });
    expect(render({ ...onLocalTime, record: { ...record, useLocalTime: false } })).not.toHaveProperty('timezoneOffset');
  });

  it('leaves out caps the caller may not see, and on the supply side names them with their permission', () => {
    const hiding = {
      ...view,
      permissionOf: (cap: CapDefinition) =>
        (cap.permission === 'Daily Budget' ? 'DISABLED' : 'ENABLED') as PermissionLevel,
    };
    const demandView = render({ idField: 'campaignId', entityId: 100, record, counters: {}, policy: hiding });
    expect(demandView).not.toHaveProperty('dailyBudgetLimit');
    expect(demandView).not.toHaveProperty('dailyBudget');
    expect(demandView).not.toHaveProperty('fieldsHiddenByPermission');
    const supplyRecord = { ...record, caps: { dailyRequestsLimit: 10, dailyClicksLimit: 5 } };
    const supplyView = {
      grid: SUPPLY_GRID,
      reportHidden: true,
      permissionOf: (cap: CapDefinition) => (cap.metric === 'requests' ? 'DISABLED' : 'READONLY') as PermissionLevel,
    };
    expect(
      render({ idField: 'siteId', entityId: 20, record: supplyRecord, counters: {}, policy: supplyView }),
    ).toMatchObject({
      dailyClicksLimit: 5,
      fieldsHiddenByPermission: { dailyRequestsLimit: 'Daily Requests Limit' },
    });
  });
});
