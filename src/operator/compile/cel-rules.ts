import { celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import { resolveRef, type SchemaDocuments } from './structural-schema.ts';

const env = celEnv();
const programs = new Map<string, (bindings: { self: never }) => unknown>();

/** Evaluates a CEL expression with `self` bound, parsing and planning each distinct expression once. */
function evaluate(expression: string, self: unknown): unknown {
  let program = programs.get(expression);
  if (!program) {
    program = plan(env, parse(expression)) as (bindings: { self: never }) => unknown;
    programs.set(expression, program);
  }
  return program({ self: self as never });
}

type Rule = { rule: string; message?: string; messageExpression?: string; fieldPath?: string };
type Node = Record<string, unknown>;

function deref(node: Node, file: string, docs: SchemaDocuments): { node: Node; file: string } {
  if (typeof node.$ref !== 'string') return { node, file };
  const target = resolveRef(node.$ref, file, docs);
  return deref(target.schema as Node, target.file, docs);
}

function message(rule: Rule, self: unknown): string {
  if (rule.messageExpression) {
    const value = evaluate(rule.messageExpression, self);
    if (typeof value === 'string') return value;
  }
  return rule.message ?? `failed rule: ${rule.rule}`;
}

/**
 * Evaluates the x-kubernetes-validations CEL rules of a JSON Schema against data, as the API server does after
 * defaulting; returns one line per failed rule, naming the field path.
 */
export function celViolations(
  schema: Node,
  data: unknown,
  file: string,
  docs: SchemaDocuments,
  path = '',
): string[] {
  if (data === undefined || data === null) return [];
  const { node, file: at } = deref(schema, file, docs);
  const out: string[] = [];
  for (const rule of (node['x-kubernetes-validations'] as Rule[] | undefined) ?? []) {
    // Transition rules (immutability) compare with the stored object: only the API server has one.
    if (/\boldSelf\b/.test(rule.rule)) continue;
    const result = evaluate(rule.rule, data);
    if (result === true) continue;
    const where = `${path}${rule.fieldPath ?? ''}`.replace(/^\./, '') || '(root)';
    out.push(
      isCelError(result)
        ? `${where}: rule ${rule.rule} could not be evaluated`
        : `${where}: ${message(rule, data)}`,
    );
  }
  if (Array.isArray(data) && node.items) {
    data.forEach((item, i) => {
      out.push(...celViolations(node.items as Node, item, at, docs, `${path}[${i}]`));
    });
  } else if (typeof data === 'object' && node.properties) {
    for (const [key, sub] of Object.entries(node.properties as Record<string, Node>)) {
      out.push(...celViolations(sub, (data as Node)[key], at, docs, `${path}.${key}`));
    }
  }
  return out;
}
