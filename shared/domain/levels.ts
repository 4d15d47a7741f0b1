/**
 * The one table of levels: every fact that differs between advertiser, campaign, banner, site and placement.
 * Whatever needs "demand or supply", "the id field" or "the parents" derives it from here.
 */
import { DEMAND_GRID, SUPPLY_GRID, type CapGrid } from './limits/cap-grid';
import { CAMPAIGN_PER_ACTION, INVENTORY_PER_ACTION } from './permissions';

export const ENTITY_TYPES = ['ADVERTISER', 'CAMPAIGN', 'BANNER', 'SITE', 'PLACEMENT'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** The level as it appears in paths: the entity type in lower case. */
export type LimitLevel = Lowercase<EntityType>;

export type Side = 'demand' | 'supply';

export interface LevelDefinition {
  entityType: EntityType;
  /** The level as it appears in paths: `/rest-api/{level}/{id}/…`. */
  level: LimitLevel;
  side: Side;
  grid: CapGrid;
  /** `campaignId`, `siteId` …: the path parameter, the read shape's id field and the field children store it in. */
  idField: `${LimitLevel}Id`;
  displayName: string;
  /** Permission that guards the level's per-action limits. */
  perActionPermission: string;
  /** Ancestors whose shares cover the entity and whose limits also hold it back, nearest first. */
  parentTypes: readonly EntityType[];
}

const level = (entityType: EntityType, side: Side, parentTypes: readonly EntityType[]): LevelDefinition => {
  const name = entityType.toLowerCase() as LimitLevel;
  return {
    entityType,
    level: name,
    side,
    grid: side === 'demand' ? DEMAND_GRID : SUPPLY_GRID,
    idField: `${name}Id`,
    displayName: name.charAt(0).toUpperCase() + name.slice(1),
    perActionPermission: side === 'demand' ? CAMPAIGN_PER_ACTION : INVENTORY_PER_ACTION,
    parentTypes,
  };
};

export const LEVELS: readonly LevelDefinition[] = [
  level('ADVERTISER', 'demand', []),
  level('CAMPAIGN', 'demand', ['ADVERTISER']),
  level('BANNER', 'demand', ['CAMPAIGN', 'ADVERTISER']),
  level('SITE', 'supply', []),
  level('PLACEMENT', 'supply', ['SITE']),
];

const BY_TYPE = new Map(LEVELS.map((row) => [row.entityType, row]));
const BY_NAME = new Map(LEVELS.map((row) => [row.level, row]));

export const levelOfType = (type: EntityType): LevelDefinition => BY_TYPE.get(type)!;
export const levelNamed = (name: LimitLevel): LevelDefinition => BY_NAME.get(name)!;

export const levelsOfSide = (side: Side): LevelDefinition[] => LEVELS.filter((row) => row.side === side);

export const isDemandType = (type: EntityType): boolean => levelOfType(type).side === 'demand';

/** How an entity is named in answers and events: `CAMPAIGN#100`. */
export const entityName = (type: EntityType, id: number): string => `${type}#${id}`;

/** The stored ids of an entity's ancestors, nearest first, as its catalog item carries them. */
export const ancestorsOf = (
  type: EntityType,
  parentIds: Readonly<Partial<Record<LevelDefinition['idField'], number>>>,
): { type: EntityType; id: number }[] =>
  levelOfType(type).parentTypes.flatMap((parent) => {
    const id = parentIds[levelOfType(parent).idField];
    return id === undefined ? [] : [{ type: parent, id }];
  });
