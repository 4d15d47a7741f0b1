import { RemovalPolicy } from 'aws-cdk-lib';

/** What production keeps when the stack goes (the table, its logs, its event archive); other stages leave nothing. */
export const retainedInProduction = (production: boolean): RemovalPolicy =>
  production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
