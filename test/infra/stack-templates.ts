import { NestedStack, Stack, type App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

/** A CloudFormation template, as far as the tests read it. */
export interface CfnTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: unknown } }>;
  Parameters?: Record<string, unknown>;
}

/** One template of a synthesis: a stack's, or a nested stack's with the resource of its parent that holds it. */
interface Part {
  name: string;
  template: CfnTemplate;
  parent?: { part: Part; resourceId: string };
}

/** The most resources a template of the stage may hold: 60 % of CloudFormation's 500, room for the routes to come. */
export const TEMPLATE_RESOURCE_BUDGET = 300;

/** One template as CloudFormation counts it (quotas: 500 resources, 200 outputs, 200 parameters), and what it imports. */
export interface TemplateSummary {
  resources: number;
  outputs: number;
  parameters: number;
  /** Its resources by type. */
  types: Record<string, number>;
  /** The stacks whose exports it imports (`Fn::ImportValue`): the stacks it cannot be deployed without. */
  importsFrom: string[];
}

/** Every stack and nested stack of a synthesized app, parents before the stacks nested in them. */
const partsOf = (app: App): Part[] => {
  const parts = new Map<Stack, Part>();
  const stacks = app.node.findAll().filter((construct): construct is Stack => Stack.isStack(construct));
  for (const stack of stacks) {
    const template = Template.fromStack(stack).toJSON() as CfnTemplate;
    const nested = NestedStack.isNestedStack(stack) ? stack : undefined;
    const parentPart = nested ? parts.get(nested.nestedStackParent!)! : undefined;
    const parent =
      nested && parentPart
        ? { part: parentPart, resourceId: nested.nestedStackParent!.getLogicalId(nested.nestedStackResource!) }
        : undefined;
    parts.set(stack, {
      name: parent ? `${parent.part.name}/${stack.node.id}` : stack.stackName,
      template,
      ...(parent ? { parent } : {}),
    });
  }
  return [...parts.values()];
};

type Json = unknown;

/**
 * The references between templates replaced by what they name, so that a value reads as it would in one template:
 * an imported export by the producing stack's output value, a nested stack's parameter by what its parent passes,
 * a parent's read of a nested stack's output by that output's value.
 */
const resolver = (parts: Part[]) => {
  const exports = new Map<string, { part: Part; value: Json }>();
  for (const part of parts)
    for (const output of Object.values(part.template.Outputs ?? {}))
      if (typeof output.Export?.Name === 'string') exports.set(output.Export.Name, { part, value: output.Value });
  const nestedAt = (part: Part, resourceId: string) =>
    parts.find((candidate) => candidate.parent?.part === part && candidate.parent.resourceId === resourceId);
  const resolve = (value: Json, part: Part): Json => {
    if (Array.isArray(value)) return value.map((item) => resolve(item, part));
    if (value === null || typeof value !== 'object') return value;
    const object = value as Record<string, Json>;
    const keys = Object.keys(object);
    if (
      keys.length === 1 &&
      typeof object.Ref === 'string' &&
      part.parent &&
      object.Ref in (part.template.Parameters ?? {})
    ) {
      const { part: parent, resourceId } = part.parent;
      const passed = (parent.template.Resources[resourceId]!.Properties!.Parameters as Record<string, Json>)[
        object.Ref
      ];
      return resolve(passed, parent);
    }
    if (keys.length === 1 && typeof object['Fn::ImportValue'] === 'string') {
      const exported = exports.get(object['Fn::ImportValue']);
      if (!exported) throw new Error(`No stack exports ${object['Fn::ImportValue']}`);
      return resolve(exported.value, exported.part);
    }
    const getAtt = object['Fn::GetAtt'];
    if (keys.length === 1 && Array.isArray(getAtt) && String(getAtt[1]).startsWith('Outputs.')) {
      const nested = nestedAt(part, String(getAtt[0]));
      if (nested) return resolve(nested.template.Outputs![String(getAtt[1]).slice('Outputs.'.length)]!.Value, nested);
    }
    return Object.fromEntries(keys.map((key) => [key, resolve(object[key], part)]));
  };
  return resolve;
};

/**
 * A synthesized app's templates as one: every resource of every stack and nested stack under its own logical id
 * (ids are unique across the stage's templates), the references between them resolved, and the top-level stacks'
 * outputs; and each template's size. The tests read a stage's resources whichever template holds them.
 */
export const mergedTemplates = (app: App): { merged: CfnTemplate; summaries: Record<string, TemplateSummary> } => {
  const parts = partsOf(app);
  const resolve = resolver(parts);
  const merged: CfnTemplate = { Resources: {}, Outputs: {} };
  const summaries: Record<string, TemplateSummary> = {};
  for (const part of parts) {
    for (const [id, resource] of Object.entries(part.template.Resources)) {
      if (id in merged.Resources) throw new Error(`${id} is a logical id of two templates`);
      merged.Resources[id] = resolve(resource, part) as CfnTemplate['Resources'][string];
    }
    if (!part.parent)
      for (const [id, output] of Object.entries(part.template.Outputs ?? {}))
        if (!output.Export) merged.Outputs![id] = { Value: resolve(output.Value, part) };
    const types: Record<string, number> = {};
    for (const resource of Object.values(part.template.Resources))
      types[resource.Type] = (types[resource.Type] ?? 0) + 1;
    const imported = [...JSON.stringify(part.template).matchAll(/"Fn::ImportValue":"([^":]+):/g)].map(
      ([, name]) => name!,
    );
    summaries[part.name] = {
      resources: Object.keys(part.template.Resources).length,
      outputs: Object.keys(part.template.Outputs ?? {}).length,
      parameters: Object.keys(part.template.Parameters ?? {}).length,
      types,
      importsFrom: [...new Set(imported)].sort(),
    };
  }
  return { merged, summaries };
};
