// Routes for application properties, users, projects and repositories.

import { projectRank, rank, repoRank } from '../core-state.ts';
import { bitbucketError, page, type RouteContext, type RouteTable } from '../route-types.ts';
import type { FakeProject, FakeRepo } from '../state.ts';

/** A project as Bitbucket returns it. */
export function projectJson(p: FakeProject, ctx: RouteContext) {
  return {
    key: p.key,
    id: p.id,
    name: p.name,
    ...(p.description && { description: p.description }),
    public: p.public,
    type: p.personal ? 'PERSONAL' : 'NORMAL',
    links: { self: [{ href: `${ctx.baseUrl}/projects/${p.key}` }] },
  };
}

/** A repository as Bitbucket returns it, with its project, clone links and fork origin. */
export function repoJson(r: FakeRepo, ctx: RouteContext): Record<string, unknown> {
  const project = ctx.state.projects.find((p) => p.key === r.projectKey)!;
  const key = r.projectKey.toLowerCase();
  const origin = r.originId === undefined ? undefined : ctx.state.repos.find((x) => x.id === r.originId);
  const web = project.personal
    ? `${ctx.baseUrl}/users/${key.slice(1)}/repos/${r.slug}`
    : `${ctx.baseUrl}/projects/${r.projectKey}/repos/${r.slug}`;
  return {
    slug: r.slug,
    id: r.id,
    name: r.name,
    ...(r.description && { description: r.description }),
    scmId: 'git',
    state: 'AVAILABLE',
    statusMessage: 'Available',
    forkable: true,
    public: r.public,
    archived: r.archived === true,
    project: projectJson(project, ctx),
    ...(origin && { origin: repoJson(origin, ctx) }),
    links: {
      clone: [
        { href: `${ctx.baseUrl}/scm/${key}/${r.slug}.git`, name: 'http' },
        { href: `ssh://git@${ctx.sshHost}/${key}/${r.slug}.git`, name: 'ssh' },
      ],
      self: [{ href: `${web}/browse` }],
    },
  };
}

/** Bitbucket's 404 for a project key that does not exist (or that the caller may not see). */
export const noSuchProject = (ctx: RouteContext) =>
  bitbucketError(
    404,
    `Project ${ctx.params.projectKey} does not exist.`,
    'com.atlassian.bitbucket.project.NoSuchProjectException',
  );
export const visible = (ctx: RouteContext) => (r: FakeRepo) => r.public || ctx.user !== undefined;
export const findProject = (ctx: RouteContext) =>
  ctx.state.projects.find((p) => p.key.toUpperCase() === ctx.params.projectKey.toUpperCase());

/** The operations bbdc's auth and repo commands use. */
export const projectRepoRoutes: RouteTable = {
  getApplicationProperties: {
    auth: 'optional',
    handle: () => ({
      status: 200,
      body: {
        version: '9.4.0',
        buildNumber: '9004000',
        buildDate: '1700000000000',
        displayName: 'Bitbucket',
      },
    }),
  },
  // The cluster needs SYS_ADMIN: the fake's admin users hold it, others get Bitbucket's 401.
  getInformation: {
    auth: 'required',
    handle: (ctx) => {
      if (!ctx.user?.admin)
        return bitbucketError(
          401,
          'You are not permitted to access this resource',
          'com.atlassian.bitbucket.AuthorisationException',
        );
      const node = {
        id: 'node-1',
        name: 'bitbucket-1',
        address: { address: '10.0.0.1', port: 5701 },
        buildVersion: '9.4.0',
        local: true,
      };
      return { status: 200, body: { localNode: node, nodes: [node], running: true } };
    },
  },
  getUser: {
    auth: 'required',
    handle: (ctx) => {
      const u = ctx.state.users.find((x) => x.slug === ctx.params.userSlug.toLowerCase());
      if (!u)
        return bitbucketError(
          404,
          `User ${ctx.params.userSlug} does not exist.`,
          'com.atlassian.bitbucket.user.NoSuchUserException',
        );
      return {
        status: 200,
        body: {
          name: u.name,
          slug: u.slug,
          displayName: u.displayName,
          emailAddress: u.email,
          id: 1,
          type: 'NORMAL',
          active: true,
        },
      };
    },
  },
  getProjects: {
    auth: 'optional',
    handle: (ctx) => {
      const wanted = rank(ctx.query.get('permission') ?? undefined);
      const name = ctx.query.get('name')?.trim().toLowerCase();
      const projects = ctx.state.projects
        .filter((p) => (wanted ? projectRank(ctx.state, ctx.user, p.key) >= wanted : p.public || !!ctx.user))
        .filter((p) => !name || p.name.toLowerCase().includes(name));
      return page(
        projects.map((p) => projectJson(p, ctx)),
        ctx.query,
      );
    },
  },
  getProject: {
    auth: 'optional',
    handle: (ctx) => {
      const p = findProject(ctx);
      if (!p || (!p.public && !ctx.user)) return noSuchProject(ctx);
      return { status: 200, body: projectJson(p, ctx) };
    },
  },
  getRepositories_1: {
    auth: 'optional',
    handle: (ctx) => {
      const key = ctx.query.get('projectkey')?.toUpperCase();
      const name = ctx.query.get('name')?.trim().toLowerCase();
      const wanted = rank(ctx.query.get('permission') ?? undefined);
      const repos = ctx.state.repos
        .filter(visible(ctx))
        .filter((r) => !key || r.projectKey.toUpperCase() === key)
        .filter((r) => !name || r.name.toLowerCase().includes(name))
        .filter((r) => !wanted || repoRank(ctx.state, ctx.user, r) >= wanted);
      return page(
        repos.map((r) => repoJson(r, ctx)),
        ctx.query,
      );
    },
  },
  getRepositories: {
    auth: 'optional',
    handle: (ctx) => {
      const p = findProject(ctx);
      if (!p) return noSuchProject(ctx);
      const repos = ctx.state.repos.filter((r) => r.projectKey === p.key).filter(visible(ctx));
      return page(
        repos.map((r) => repoJson(r, ctx)),
        ctx.query,
      );
    },
  },
  getRepository: {
    auth: 'optional',
    handle: (ctx) => {
      const p = findProject(ctx);
      const r =
        p &&
        ctx.state.repos.find(
          (x) => x.projectKey === p.key && x.slug === ctx.params.repositorySlug.toLowerCase(),
        );
      if (!r || !visible(ctx)(r))
        return bitbucketError(
          404,
          `Repository ${ctx.params.projectKey}/${ctx.params.repositorySlug} does not exist.`,
          'com.atlassian.bitbucket.repository.NoSuchRepositoryException',
        );
      return { status: 200, body: repoJson(r, ctx) };
    },
  },
  createRepository: {
    auth: 'required',
    handle: (ctx) => {
      const p = findProject(ctx);
      if (!p) return noSuchProject(ctx);
      if (!ctx.user?.admin)
        return bitbucketError(
          403,
          `You are not permitted to create repositories in project ${p.key}.`,
          'com.atlassian.bitbucket.AuthorisationException',
        );
      const body = (ctx.body ?? {}) as { name?: string; description?: string };
      if (!body.name)
        return bitbucketError(
          400,
          'name: A name is required.',
          'com.atlassian.bitbucket.validation.ArgumentValidationException',
        );
      const slug = body.name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
      if (ctx.state.repos.some((r) => r.projectKey === p.key && r.slug === slug)) {
        return bitbucketError(
          409,
          `This repository URL is already taken by '${body.name}' in '${p.name}'`,
          'com.atlassian.bitbucket.repository.DuplicateRepositoryNameException',
        );
      }
      const repo: FakeRepo = {
        id: ctx.state.nextId++,
        slug,
        name: body.name,
        projectKey: p.key,
        public: false,
        description: body.description,
      };
      ctx.state.repos.push(repo);
      return { status: 201, body: repoJson(repo, ctx) };
    },
  },
};
