import { FUNCTION_ENTRIES, type FunctionName } from '../../../infra/cdk/bundling';
import type { Resource } from '../../infra/template';

/** The account and region the template's references are resolved in: any will do, the same for both sides. */
export const ACCOUNT = '111122223333';
const REGION = 'eu-west-1';
const STREAM_LABEL = '1970-01-01T00:00:00.000';

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** A function's role as deployed, every reference resolved to an ARN, and where each of its variables points. */
export interface RoleUnderTest {
  statements: PolicyStatement[];
  /** The ARN of the resource each variable of its environment names (`TABLE_NAME`: the table's). */
  targets: Record<string, string>;
}

type Intrinsic = string | { Ref?: string; 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, Intrinsic[]] };

const PSEUDO: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT };

const ARN_OF_TYPE: Record<string, (id: string) => string> = {
  'AWS::DynamoDB::Table': (id) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${id}`,
  'AWS::SQS::Queue': (id) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`,
  'AWS::Events::EventBus': (id) => `arn:aws:events:${REGION}:${ACCOUNT}:event-bus/${id}`,
  'AWS::Logs::LogGroup': (id) => `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${id}:*`,
};

const arnOf = (resources: Record<string, Resource>, id: string, attribute = 'Arn'): string => {
  const type = resources[id]?.Type ?? '';
  const arn = ARN_OF_TYPE[type];
  if (!arn) throw new Error(`No ARN known for ${id} (${type})`);
  if (attribute === 'StreamArn') return `${arn(id)}/stream/${STREAM_LABEL}`;
  return arn(id);
};

const resolve = (resources: Record<string, Resource>, value: Intrinsic): string => {
  if (typeof value === 'string') return value;
  if (value.Ref) return PSEUDO[value.Ref] ?? arnOf(resources, value.Ref);
  if (value['Fn::GetAtt']) return arnOf(resources, ...value['Fn::GetAtt']);
  if (value['Fn::Join']) return value['Fn::Join'][1].map((part) => resolve(resources, part)).join(value['Fn::Join'][0]);
  throw new Error(`Cannot resolve ${JSON.stringify(value)}`);
};

/** What a variable's value names: the referenced resource, or for the sender address the SES identity of its domain. */
const targetOf = (resources: Record<string, Resource>, name: string, value: Intrinsic): string | undefined => {
  if (typeof value !== 'string') return resolve(resources, value);
  if (name === 'MAIL_FROM') return `arn:aws:ses:${REGION}:${ACCOUNT}:identity/${value.split('@')[1]}`;
  return undefined;
};

const roleOf = (resources: Record<string, Resource>, fn: Resource): RoleUnderTest => {
  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: PolicyStatement[] }).Statement)
    .map((statement) => ({
      ...statement,
      Resource: [statement.Resource as Intrinsic | Intrinsic[]].flat().map((part) => resolve(resources, part)),
    }));
  const variables = ((fn.Properties.Environment as { Variables?: Record<string, Intrinsic> } | undefined)?.Variables ??
    {}) as Record<string, Intrinsic>;
  const targets = Object.fromEntries(
    Object.entries(variables).flatMap(([name, value]) => {
      const target = targetOf(resources, name, value);
      return target ? [[name, target]] : [];
    }),
  );
  return { statements, targets };
};

/** Every function's role in a synthesized template's resources. */
export const rolesOf = (resources: Record<string, Resource>): Record<FunctionName, RoleUnderTest> => {
  const functions = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function');
  return Object.fromEntries(
    (Object.keys(FUNCTION_ENTRIES) as FunctionName[]).map((name) => {
      const [, fn] = functions.find(([id]) => id.startsWith(`${name.replace(/-/g, '')}Function`))!;
      return [name, roleOf(resources, fn)];
    }),
  ) as Record<FunctionName, RoleUnderTest>;
};
