import type { Commit, Person } from '../../../generated/types/cli/output/commit.ts';
import { isoTime } from './timestamps.ts';

type RestPerson = { name: string; emailAddress?: string; displayName?: string };

/** A commit as the Bitbucket REST API returns it. */
export type RestCommit = {
  id: string;
  displayId: string;
  message: string;
  author: RestPerson;
  authorTimestamp: number;
  committer?: RestPerson;
  committerTimestamp?: number;
  parents?: { id: string }[];
};

function person(p: RestPerson): Person {
  return {
    name: p.name,
    ...(p.emailAddress && { email: p.emailAddress }),
    ...(p.displayName && { displayName: p.displayName }),
  };
}

/** The commit shape bbdc prints, with ISO 8601 times. */
export function toCommit(c: RestCommit): Commit {
  return {
    id: c.id,
    displayId: c.displayId,
    message: c.message,
    author: person(c.author),
    authoredAt: isoTime(c.authorTimestamp, `commit ${c.id} authorTimestamp`)!,
    committer: person(c.committer ?? c.author),
    committedAt: isoTime(c.committerTimestamp ?? c.authorTimestamp, `commit ${c.id} committerTimestamp`)!,
    parents: (c.parents ?? []).map((p) => p.id),
  };
}

/** The first line of a commit message. */
export function subject(message: string): string {
  return message.split('\n')[0];
}
