import * as iam from 'aws-cdk-lib/aws-iam';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { FunctionAccess, TableGrant } from './function-access';

/**
 * A function's table access (`function-access.ts`): reads, writes and transaction checks in statements of their
 * own, each limited to its partitions.
 */
export const grantTableAccess = (fn: lambda.Function, table: dynamodb.ITable, access: FunctionAccess): void => {
  const grant = (sid: string, { actions, leadingKeys }: TableGrant) =>
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid,
        actions: [...actions],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...leadingKeys] } },
      }),
    );
  if (access.reads) grant('TableReads', access.reads);
  if (access.writes) grant('TableWrites', access.writes);
  if (access.checks) grant('TableChecks', access.checks);
  if (access.queriesIndexes?.length)
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: access.queriesIndexes.map((index) => `${table.tableArn}/index/${index}`),
      }),
    );
};
