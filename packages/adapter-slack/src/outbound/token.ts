import { SlackTokenError } from '../errors.js';
import type { SlackInstallation, SlackTokenResolver } from '../normalize/installation.js';

function describe(installation: SlackInstallation): string {
  return installation.isEnterpriseInstall
    ? `enterprise ${installation.enterpriseId ?? '?'}`
    : `team ${installation.teamId ?? '?'}`;
}

/**
 * The bot token of `installation` from `resolver`. Rejects with `SlackTokenError` when the resolver
 * throws (the error is the `cause`) or yields anything but a non-empty string.
 */
export async function resolveToken(
  resolver: SlackTokenResolver,
  installation: SlackInstallation,
): Promise<string> {
  let token: unknown;
  try {
    token = await resolver(installation);
  } catch (error) {
    throw new SlackTokenError(`token resolver failed for ${describe(installation)}`, {
      cause: error,
    });
  }
  if (typeof token !== 'string' || token.length === 0) {
    throw new SlackTokenError(`token resolver returned no token for ${describe(installation)}`);
  }
  return token;
}
