import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { plannedConcurrency, stackProps } from '../../infra/cdk/app';
import { quotaChecklist, quotaTable } from '../../infra/cdk/quota-checklist';

/** `-c key=value` (or `--context key=value`) arguments, as `cdk synth` takes them. */
export const contextArguments = (args: readonly string[]): Record<string, string> => {
  const context: Record<string, string> = {};
  args.forEach((arg, index) => {
    if (arg !== '-c' && arg !== '--context') return;
    const [key, ...value] = (args[index + 1] ?? '').split('=');
    if (key) context[key] = value.join('=');
  });
  return context;
};

/**
 * The account quotas a deployment needs, computed from the very settings the stack is built from: cdk.json's
 * context, then the `-c key=value` arguments given here as to `cdk synth`.
 */
export const stackSettings = (args: readonly string[]) => {
  const cdkJson = JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> };
  return stackProps(new App({ context: { ...cdkJson.context, ...contextArguments(args) } }));
};

export const quotaChecklistOf = (args: readonly string[]): string => {
  const props = stackSettings(args);
  return quotaTable(quotaChecklist(props, plannedConcurrency(props)));
};
