// Routes that create, change and delete projects and repositories, and fork repositories.
import { bitbucketError, type RouteTable } from '../route-types.ts';
import type { FakeProject, FakeRepo } from '../state.ts';
import { isResult, needProject, needRepo, projectOr404, repoOr404 } from './lookup.ts';
import { projectJson, repoJson } from './projects-repos.ts';

type ProjectBody = { key?: string; name?: string; description?: string; public?: boolean };
type RepoBody = {
  archived?: boolean;
  name?: string;
  description?: string;
  public?: boolean;
  project?: { key?: string };
};

const invalid = (message: string) =>
  bitbucketError(400, message, 'com.atlassian.bitbucket.validation.ArgumentValidationException');
const slugify = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');

/** Project create/update/delete and repository update/delete/fork. */
export const coreProjectRoutes: RouteTable = {
  createProject: {
    auth: 'required',
    handle: (ctx) => {
      if (!ctx.user?.admin) return bitbucketError(403, 'You are not permitted to create projects.');
      const body = (ctx.body ?? {}) as ProjectBody;
      if (!body.key || !/^[A-Za-z][A-Za-z0-9_]*$/.test(body.key))
        return invalid('key: Project keys must start with a letter and contain only letters, digits or _.');
      if (!body.name) return invalid('name: A name is required.');
      const key = body.key.toUpperCase();
      if (ctx.state.projects.some((p) => p.key === key))
        return bitbucketError(
          409,
          `A project with key ${key} already exists.`,
          'com.atlassian.bitbucket.project.DuplicateProjectKeyException',
        );
      const p: FakeProject = {
        key,
        id: ctx.state.nextId++,
        name: body.name,
        public: body.public === true,
        personal: false,
        ...(body.description && { description: body.description }),
      };
      ctx.state.projects.push(p);
      return { status: 201, body: projectJson(p, ctx) };
    },
  },
  updateProject: {
    auth: 'required',
    handle: (ctx) => {
      const p = projectOr404(ctx);
      if (isResult(p)) return p;
      const denied = needProject(ctx, p, 'PROJECT_ADMIN');
      if (denied) return denied;
      // A PUT replaces the project (RestProject): a description or visibility left out is erased.
      const body = (ctx.body ?? {}) as ProjectBody;
      if (body.name !== undefined) p.name = body.name;
      p.description = body.description;
      p.public = body.public === true;
      return { status: 200, body: projectJson(p, ctx) };
    },
  },
  deleteProject: {
    auth: 'required',
    handle: (ctx) => {
      const p = projectOr404(ctx);
      if (isResult(p)) return p;
      const denied = needProject(ctx, p, 'PROJECT_ADMIN');
      if (denied) return denied;
      if (ctx.state.repos.some((r) => r.projectKey === p.key))
        return bitbucketError(
          409,
          `The project "${p.key}" cannot be deleted because it has repositories.`,
          'com.atlassian.bitbucket.IntegrityException',
        );
      ctx.state.projects.splice(ctx.state.projects.indexOf(p), 1);
      return { status: 204 };
    },
  },
  updateRepository: {
    auth: 'required',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const denied = needRepo(ctx, r, 'REPO_ADMIN');
      if (denied) return denied;
      const body = (ctx.body ?? {}) as RepoBody;
      if (body.name !== undefined) {
        const slug = slugify(body.name);
        if (ctx.state.repos.some((x) => x !== r && x.projectKey === r.projectKey && x.slug === slug))
          return bitbucketError(409, `This repository URL is already taken by '${body.name}'`);
        r.name = body.name;
        r.slug = slug;
      }
      // A PUT replaces the repository (RestRepository): a description, visibility or archived flag left out is
      // erased or back to its default.
      r.description = body.description;
      r.public = body.public === true;
      r.archived = body.archived === true;
      return { status: 201, body: repoJson(r, ctx) };
    },
  },
  deleteRepository: {
    auth: 'required',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const denied = needRepo(ctx, r, 'REPO_ADMIN');
      if (denied) return denied;
      ctx.state.repos.splice(ctx.state.repos.indexOf(r), 1);
      return { status: 202 };
    },
  },
  forkRepository: {
    auth: 'required',
    handle: (ctx) => {
      const r = repoOr404(ctx);
      if (isResult(r)) return r;
      const body = (ctx.body ?? {}) as RepoBody;
      const key = body.project?.key ?? `~${ctx.user!.slug}`;
      let target = ctx.state.projects.find((p) => p.key.toUpperCase() === key.toUpperCase());
      if (!target && key.toLowerCase() === `~${ctx.user!.slug}`) {
        target = {
          key: key.toLowerCase(),
          id: ctx.state.nextId++,
          name: ctx.user!.displayName,
          public: false,
          personal: true,
        };
        ctx.state.projects.push(target);
      }
      if (!target)
        return bitbucketError(
          404,
          `Project ${key} does not exist.`,
          'com.atlassian.bitbucket.project.NoSuchProjectException',
        );
      const denied = target.personal ? undefined : needProject(ctx, target, 'PROJECT_ADMIN');
      if (denied) return denied;
      const name = body.name ?? r.name;
      const slug = slugify(name);
      if (ctx.state.repos.some((x) => x.projectKey === target.key && x.slug === slug))
        return bitbucketError(
          409,
          `This repository URL is already taken by '${name}' in '${target.name}'`,
          'com.atlassian.bitbucket.repository.DuplicateRepositoryNameException',
        );
      const fork: FakeRepo = {
        id: ctx.state.nextId++,
        slug,
        name,
        projectKey: target.key,
        public: false,
        originId: r.id,
      };
      ctx.state.repos.push(fork);
      return { status: 201, body: repoJson(fork, ctx) };
    },
  },
};
