import type { RtEvent } from '@rt/core';
import type {
  SlackEventCallback,
  SlackInteractive,
  SlackSlashCommand,
} from '../parse/payload-types.js';

/** Which Slack installation a delivery belongs to; the key of a multi-workspace token store. */
export interface SlackInstallation {
  /** Workspace id (`T...`), when the payload names one. */
  readonly teamId: string | undefined;
  /** Enterprise Grid org id (`E...`), when the payload names one. */
  readonly enterpriseId: string | undefined;
  /** True for org-wide installs, whose token is keyed on the enterprise id. */
  readonly isEnterpriseInstall: boolean;
}

/**
 * Resolves the bot token of an installation. May be async; what it throws or a non-string it
 * returns becomes a `SlackTokenError` for the outbound call.
 */
export type SlackTokenResolver = (installation: SlackInstallation) => string | Promise<string>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Events API: `authorizations[0]` first (the installation the delivery was authorised for), then
 * the envelope's top-level `team_id` / `enterprise_id` / `is_enterprise_install`.
 */
export function installationOfEventCallback(body: SlackEventCallback): SlackInstallation {
  const auth = body.authorizations?.[0];
  if (auth !== undefined) {
    const teamId = text(auth.team_id) ?? text(body.team_id);
    const enterpriseId = text(auth.enterprise_id) ?? text(body.enterprise_id);
    if (teamId !== undefined || enterpriseId !== undefined) {
      return { teamId, enterpriseId, isEnterpriseInstall: auth.is_enterprise_install === true };
    }
  }
  return {
    teamId: text(body.team_id),
    enterpriseId: text(body.enterprise_id),
    isEnterpriseInstall: body.is_enterprise_install === true,
  };
}

/** Slash commands: form fields `team_id`, `enterprise_id`, `is_enterprise_install` (`"true"`). */
export function installationOfCommand(body: SlackSlashCommand): SlackInstallation {
  return {
    teamId: text(body.team_id),
    enterpriseId: text(body.enterprise_id),
    isEnterpriseInstall: body.is_enterprise_install === 'true',
  };
}

/**
 * Interactive payloads: `view.app_installed_team_id` first (views), then `team.id`, then
 * `user.team_id` (`team` is null on org-wide installs); enterprise from `enterprise.id`.
 */
export function installationOfInteractive(payload: SlackInteractive): SlackInstallation {
  return {
    teamId:
      text(payload.view?.app_installed_team_id) ??
      text(payload.team?.id) ??
      text(payload.user?.team_id),
    enterpriseId: text(payload.enterprise?.id) ?? text(payload.team?.enterprise_id),
    isEnterpriseInstall: payload.is_enterprise_install === true,
  };
}

/**
 * The tenant (docs/contract.md §9.1): the enterprise id for org-wide installs, else the team id (falling back to
 * the enterprise id when no team is named). `undefined` when the payload names neither.
 */
export function tenantOf(installation: SlackInstallation): string | undefined {
  if (installation.isEnterpriseInstall && installation.enterpriseId !== undefined) {
    return installation.enterpriseId;
  }
  return installation.teamId ?? installation.enterpriseId;
}

/** The installation of an event this adapter produced, read back from its payload. */
export function installationOf(event: RtEvent): SlackInstallation {
  const payload = event.payload as Record<string, unknown>;
  switch (event.shape) {
    case 'event_callback':
      return installationOfEventCallback(payload as unknown as SlackEventCallback);
    case 'slash_command':
      return installationOfCommand(payload as unknown as SlackSlashCommand);
    default:
      return installationOfInteractive(payload as unknown as SlackInteractive);
  }
}
