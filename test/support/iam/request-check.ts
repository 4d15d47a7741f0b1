import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { AwsRequest } from '../../../infra/local/aws-request-log';
import { ACCOUNT, type PolicyStatement, type RoleUnderTest } from './template-roles';

/** One thing a statement grants: an action on a resource. */
export interface Grant {
  function: string;
  resource: string;
  action: string;
}

/** Grants no request of the tests can use, and why they are there anyway. */
export interface UnexercisedGrant {
  functions: 'every' | readonly string[];
  resource: RegExp;
  actions: readonly string[];
  reason: string;
}

export interface RequestCheck {
  /** Requests the deployed role would refuse, with what IAM answered. */
  denied: { request: AwsRequest; resource: string; result: string }[];
  /** Grants no request used and no entry of the list excuses. */
  unused: Grant[];
  /** Entries of the list that excuse nothing: a request now uses the grant, or it is gone. */
  staleExemptions: UnexercisedGrant[];
  /** `dynamodb:LeadingKeys` patterns that reach partitions beyond the ones meant (`anchoredLeadingKey`). */
  looseLeadingKeys: { function: string; pattern: string }[];
}

const LEADING_KEYS = 'dynamodb:LeadingKeys';

/**
 * Whether a `dynamodb:LeadingKeys` pattern reaches only the partitions it names: one key as it is, or a prefix that
 * ends with its separator, then `*`. `WEBHOOKS*` reaches a `WEBHOOKSX…` partition too, `USER*` every `USERNAME#…`.
 */
export const anchoredLeadingKey = (pattern: string): boolean => !/[*?]/.test(pattern.replace(/#\*$/, ''));

/** Every leading-key pattern of the roles that is not anchored. */
const looseLeadingKeysOf = (roles: Record<string, { statements: PolicyStatement[] }>) =>
  Object.entries(roles).flatMap(([fn, role]) =>
    role.statements.flatMap((statement) =>
      Object.values(statement.Condition ?? {})
        .flatMap((condition) => [condition[LEADING_KEYS] ?? []].flat())
        .filter((pattern) => !anchoredLeadingKey(pattern))
        .map((pattern) => ({ function: fn, pattern })),
    ),
  );

/** IAM's `StringLike`: `*` any characters, `?` one. */
const like = (pattern: string, value: string): boolean =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(value);

/** Every action of a statement, on each of its resources. */
const grantsOf = (fn: string, statement: PolicyStatement): Grant[] =>
  [statement.Resource]
    .flat()
    .flatMap((resource) => [statement.Action].flat().map((action) => ({ function: fn, resource, action })));

const grantId = (grant: Grant, statement: number) =>
  [grant.function, statement, grant.resource, grant.action].join('\t');

/** Where a request went, as an ARN: the resource its target variable names in the function's deployment. */
const resourceOf = (role: RoleUnderTest, request: AwsRequest): string => {
  const target = role.targets[request.target];
  if (!target)
    throw new Error(`${request.function} has no ${request.target} in its environment, yet sent ${request.action}`);
  return request.index ? `${target}/index/${request.index}` : target;
};

const simulate = async (fn: string, statements: PolicyStatement[], request: AwsRequest, resource: string) => {
  const response = await runSimulation(
    {
      identityPolicies: [{ name: fn, policy: { Version: '2012-10-17', Statement: statements } }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action: request.action,
        principal: `arn:aws:iam::${ACCOUNT}:role/${fn}`,
        resource: { accountId: ACCOUNT, resource },
        contextVariables: request.partitionKey !== undefined ? { [LEADING_KEYS]: [request.partitionKey] } : {},
      },
    },
    {},
  );
  if (response.resultType !== 'single') throw new Error(`IAM simulation failed: ${JSON.stringify(response)}`);
  const allowedBy = (response.result.analysis?.identityAnalysis?.allowStatements ?? []).map((allow) =>
    Number(allow.statement.sid()),
  );
  return { result: response.overallResult, allowedBy };
};

/** The grants of the statements that allowed the request which it used: its action on its resource. */
const usedGrants = (
  fn: string,
  statements: PolicyStatement[],
  allowedBy: number[],
  request: AwsRequest,
  resource: string,
) =>
  allowedBy.flatMap((index) =>
    grantsOf(fn, statements[index]!)
      .filter((grant) => grant.action === request.action && like(grant.resource, resource))
      .map((grant) => grantId(grant, index)),
  );

const excuses = (exemption: UnexercisedGrant, grant: Grant) =>
  (exemption.functions === 'every' || exemption.functions.includes(grant.function)) &&
  exemption.resource.test(grant.resource) &&
  exemption.actions.includes(grant.action);

/**
 * Every recorded request against its function's role, with an offline IAM simulator; and, when the requests are
 * all the tests make (`complete`), every grant against the requests: one none used is reported unless excused.
 */
export const checkRequests = async (
  roles: Record<string, RoleUnderTest>,
  requests: readonly AwsRequest[],
  exemptions: readonly UnexercisedGrant[],
  complete: boolean,
): Promise<RequestCheck> => {
  const used = new Set<string>();
  const denied: RequestCheck['denied'] = [];
  // each statement named by its place, so that the simulator's answer says which allowed
  const numbered = Object.fromEntries(
    Object.entries(roles).map(([fn, role]) => [fn, role.statements.map((s, index) => ({ ...s, Sid: String(index) }))]),
  );
  for (const request of requests) {
    const statements = numbered[request.function]!;
    const resource = resourceOf(roles[request.function]!, request);
    const { result, allowedBy } = await simulate(request.function, statements, request, resource);
    if (result !== 'Allowed') denied.push({ request, resource, result });
    for (const id of usedGrants(request.function, statements, allowedBy, request, resource)) used.add(id);
  }
  const looseLeadingKeys = looseLeadingKeysOf(roles);
  if (!complete) return { denied, unused: [], staleExemptions: [], looseLeadingKeys };
  const unusedAll = Object.entries(numbered).flatMap(([fn, statements]) =>
    statements.flatMap((statement, index) =>
      statement.Effect === 'Allow' ? grantsOf(fn, statement).filter((grant) => !used.has(grantId(grant, index))) : [],
    ),
  );
  return {
    denied,
    unused: unusedAll.filter((grant) => !exemptions.some((exemption) => excuses(exemption, grant))),
    staleExemptions: exemptions.filter((exemption) => !unusedAll.some((grant) => excuses(exemption, grant))),
    looseLeadingKeys,
  };
};
