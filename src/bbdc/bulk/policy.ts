import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import type { BulkOperationSpec, BulkPolicy } from '../../../generated/types/cli/bulk/policy.ts';
import validate from '../../../generated/validators/bulk-policy.ts';
import { UsageError, ValidationError } from '../../core/errors.ts';
import { formatSchemaErrors } from '../../core/schema-errors.ts';
import { parseRefMatcher } from '../api/ref-matcher.ts';
import { nodeAt } from '../config/config-file.ts';
import { normalizeProjectKey } from '../config/remote-url.ts';

/** `operations.2.count` -> `operations[2].count`, the JSON path users see in messages. */
function jsonPath(dotted: string): string {
  return dotted.replace(/\.(\d+)(?=\.|:|$)/g, '[$1]');
}

/** Fills the defaults the schema documents, so the plan shows every value that will be sent. */
function withDefaults(op: BulkOperationSpec): BulkOperationSpec {
  switch (op.type) {
    case 'webhook':
      return { active: true, ...op, events: [...op.events].sort() as typeof op.events };
    case 'requiredBuilds':
      return { refMatcher: 'any', ...op };
    case 'autoMerge':
      return { enabled: true, ...op };
    case 'autoDecline':
      return { enabled: true, inactivityWeeks: 4, ...op };
    case 'defaultTask':
      return { sourceMatcher: 'any', targetMatcher: 'any', ...op };
    default:
      return op;
  }
}

/** Rules the schema cannot say: one of user/group, matchers that parse, no duplicate webhook names. */
function semanticErrors(policy: BulkPolicy): string[] {
  const errors: string[] = [];
  const s = policy.selector;
  if (!s.projectKey && !s.repositories?.length)
    errors.push('selector: set projectKey, repositories, or both');
  if (s.slugGlob && !s.projectKey)
    errors.push('selector.slugGlob: needs selector.projectKey to list slugs from');
  const webhookNames = new Set<string>();
  policy.operations.forEach((op, i) => {
    const at = `operations[${i}]`;
    if (op.type === 'repositoryPermission' && Boolean(op.user) === Boolean(op.group))
      errors.push(`${at}: set exactly one of user and group`);
    if (op.type === 'webhook') {
      if (webhookNames.has(op.name))
        errors.push(`${at}.name: another webhook operation is already named "${op.name}"`);
      webhookNames.add(op.name);
    }
    const matchers: [string, string | undefined][] =
      op.type === 'requiredBuilds'
        ? [['refMatcher', op.refMatcher]]
        : op.type === 'defaultTask'
          ? [
              ['sourceMatcher', op.sourceMatcher],
              ['targetMatcher', op.targetMatcher],
            ]
          : [];
    for (const [field, value] of matchers) {
      try {
        if (value !== undefined) parseRefMatcher(value, `${at}.${field}`);
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
  });
  return errors;
}

/** Parses and validates a policy's text (YAML or JSON); every problem names the file, line and JSON path. */
export function parsePolicy(text: string, file: string): BulkPolicy {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0].line ?? lineCounter.linePos(e.pos[0]).line;
    throw new ValidationError(`${file}:${line}: not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  const data = doc.toJS() as unknown;
  if (!validate(data)) {
    // The if/then per operation type also reports the failed `if`; it says nothing the other errors do not.
    const relevant = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
    const lines = formatSchemaErrors(relevant).map((message, i) => {
      const node = nodeAt(doc.contents, relevant[i].instancePath);
      const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
      return `${file}:${line}: ${jsonPath(message)}`;
    });
    throw new ValidationError(
      `${file} is not a valid bulk policy (schema https://realmforge.dev/schemas/cli/bulk/policy.schema.json)`,
      {
        details: [...new Set(lines)],
      },
    );
  }
  const policy = data as unknown as BulkPolicy;
  const problems = semanticErrors(policy);
  if (problems.length) throw new ValidationError(`${file} is not a valid bulk policy`, { details: problems });
  const s = policy.selector;
  return {
    ...policy,
    selector: {
      ...(s.projectKey && { projectKey: normalizeProjectKey(s.projectKey) }),
      ...(s.projectKey && { slugGlob: s.slugGlob ?? '*' }),
      ...(s.repositories && {
        repositories: [
          ...new Set(
            s.repositories.map((r) => {
              const [project, slug] = r.split('/');
              return `${normalizeProjectKey(project)}/${slug.toLowerCase()}`;
            }),
          ),
        ].sort(),
      }),
    },
    operations: policy.operations.map(withDefaults) as BulkPolicy['operations'],
  };
}

/** Reads a policy file (`-` for stdin is not supported: name a file). */
export function loadPolicy(file: string): BulkPolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `-f ${file} cannot be read (${(error as NodeJS.ErrnoException).code}); pass a policy file`,
    );
  }
  return parsePolicy(text, file);
}
