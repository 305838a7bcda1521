import type { UpdateOutput } from '../../../generated/types/cli/output/update.ts';
import { UsageError } from '../../core/errors.ts';
import { defineCommand } from '../command.ts';
import { makePlan } from '../output/plan.ts';
import type { SelfUpdateEnv } from '../update/environment.ts';
import { releaseBaseUrl } from '../update/release-source.ts';
import {
  checkForUpdate,
  installUpdate,
  type ReleaseSource,
  verifiedChecksums,
} from '../update/self-update.ts';

type Options = Record<string, never>;

/** A checkout is a clone of the repository: git updates it, a downloaded release would not belong there. */
const checkoutAdvice = (dir: string) =>
  `bbdc runs from a git checkout (${dir}), which \`bbdc update\` does not replace; update it with \`git -C ${dir} pull\` (then \`npm ci\` there when package-lock.json changed)`;

const npmAdvice = (env: SelfUpdateEnv, latest: string) =>
  `bbdc ${env.currentVersion} runs from an npm installation (${env.executablePath} is node itself), so it cannot replace itself; update it with \`npm install -g @realmforge/bbdc@${latest}\``;

/** `bbdc update`: installs the latest release after verifying its Sigstore signature and checksum. */
export const command = defineCommand<Options, UpdateOutput>({
  name: 'update',
  summary: 'Update bbdc to the latest release, verifying its signature and checksum',
  description:
    "Reads release.json of the latest release from BBDC_RELEASE_URL (default: the project's GitHub releases), " +
    "and when it is newer downloads sha256sums.txt, its Sigstore bundle and this platform's archive. The bundle must " +
    "verify against Sigstore's trusted root and name the release workflow of that tag as signer; the archive must " +
    'match its checksum. The executable is then replaced atomically (the old one comes back if the new one does not ' +
    'start); on Windows the new one is staged and swapped in after bbdc exits. --dry-run verifies the signature and ' +
    'reports what would change.',
  args: [],
  flags: {},
  outputSchema: 'update',
  effect: 'mutating',
  examples: ['bbdc update --dry-run', 'bbdc update'],
  parse: () => ({}),
  async plan(_o, deps) {
    const env = await deps.selfUpdate();
    if (env.checkout) throw new UsageError(checkoutAdvice(env.checkout));
    const source = releaseSource(deps);
    const check = await checkForUpdate(env, source);
    const reasons = [`installed: ${check.current}; latest release: ${check.latest} (${source.baseUrl})`];
    const blocking: string[] = [];
    if (check.newer) {
      const { sums, signer } = await verifiedChecksums(env, source, check.latest);
      reasons.push(
        `sha256sums.txt is signed by ${signer.identity} (issuer ${signer.issuer}, ${signer.format} bundle)`,
      );
      const sum = sums.get(check.archive);
      if (sum) reasons.push(`${check.archive} must have sha256 ${sum}`);
      else blocking.push(`sha256sums.txt has no line for ${check.archive}`);
      if (!env.standalone) blocking.push(npmAdvice(env, check.latest));
    }
    const windows = env.platform === 'win32';
    return makePlan({
      intent: 'bbdc update',
      target: { type: 'executable', id: env.executablePath },
      action: {
        type: 'file',
        description: windows
          ? `stage bbdc ${check.latest} from ${check.archive} and swap it in after bbdc exits`
          : `replace ${env.executablePath} with bbdc ${check.latest} from ${check.archive}`,
        method: 'GET',
        path: check.archiveUrl,
      },
      predictedAction: check.newer ? 'update' : 'no-op',
      ...(!check.newer && { summary: `nothing to do: bbdc ${check.current} is the latest release` }),
      reasons,
      blockingReasons: blocking,
    });
  },
  async run(_o, deps) {
    const env = await deps.selfUpdate();
    if (env.checkout) throw new UsageError(checkoutAdvice(env.checkout));
    const source = releaseSource(deps);
    const check = await checkForUpdate(env, source);
    const base = {
      currentVersion: check.current,
      latestVersion: check.latest,
      executable: env.executablePath,
    };
    if (!check.newer) return { ...base, status: 'up-to-date' };
    if (!env.standalone) throw new UsageError(npmAdvice(env, check.latest));
    deps.ui.notice(`Updating bbdc ${check.current} to ${check.latest} from ${check.archiveUrl}`);
    const outcome = await installUpdate(env, source, check);
    return {
      ...base,
      status: outcome.status,
      archive: check.archiveUrl,
      sha256: outcome.sha256,
      signer: outcome.signer,
    };
  },
  human(d, ui) {
    if (d.status === 'up-to-date') {
      ui.line(`bbdc ${d.currentVersion} is the latest release.`);
      return;
    }
    const signer = d.signer ? ` (signed by ${d.signer.identity})` : '';
    ui.line(
      d.status === 'staged'
        ? `Staged bbdc ${d.latestVersion}${signer}; it replaces ${d.executable} when this bbdc exits.`
        : `Updated bbdc ${d.currentVersion} to ${d.latestVersion}${signer}: ${d.executable}`,
    );
  },
});

function releaseSource(deps: {
  env: Readonly<Record<string, string | undefined>>;
  globals: { requestTimeoutMs: number };
}): ReleaseSource {
  return {
    baseUrl: releaseBaseUrl(deps.env),
    timeoutMs: Math.max(deps.globals.requestTimeoutMs, 120_000),
    env: deps.env,
  };
}
