import { SLACK_TEST_IDS } from './event-payloads.js';
import { formPayload, interactivePayload, nextSeq, type SlackTestPayload } from './payload.js';

/** Installation and user fields shared by direct invocations. */
export interface InvocationOptions {
  readonly teamId?: string;
  readonly enterpriseId?: string;
  /** An org-wide install: `team` becomes null and the tenant is the enterprise id. */
  readonly isEnterpriseInstall?: boolean;
  readonly userId?: string;
  readonly apiAppId?: string;
  /** Default a fresh `trigger-<seq>`. */
  readonly triggerId?: string;
}

function triggerOf(options: InvocationOptions): string {
  return options.triggerId ?? `${nextSeq()}.1337.trigger`;
}

function ts(): string {
  return `${1_700_000_000 + nextSeq()}.000200`;
}

function common(options: InvocationOptions): Record<string, unknown> {
  const teamId = options.teamId ?? SLACK_TEST_IDS.teamId;
  const org = options.isEnterpriseInstall === true;
  const enterpriseId = options.enterpriseId ?? (org ? SLACK_TEST_IDS.enterpriseId : undefined);
  return {
    token: 'legacy-verification-token',
    api_app_id: options.apiAppId ?? SLACK_TEST_IDS.apiAppId,
    team: org ? null : { id: teamId, domain: 'example' },
    enterprise: enterpriseId !== undefined ? { id: enterpriseId, name: 'Example Org' } : null,
    is_enterprise_install: org,
    user: {
      id: options.userId ?? SLACK_TEST_IDS.userId,
      username: 'someone',
      name: 'someone',
      team_id: teamId,
    },
  };
}

/** Options of a modal view carried by view payloads. */
export interface ViewOptions {
  readonly viewId?: string;
  readonly hash?: string;
  readonly callbackId?: string;
  /** Default: one input block `input_block` / `input_action`. */
  readonly blocks?: readonly Record<string, unknown>[];
  /** Default: the input block's typed value. */
  readonly stateValues?: Record<string, Record<string, unknown>>;
  readonly type?: 'modal' | 'home';
  readonly teamId?: string;
}

/** An input block (what `response_action: errors` can point at). */
export function inputBlock(
  blockId = 'input_block',
  actionId = 'input_action',
): Record<string, unknown> {
  return {
    type: 'input',
    block_id: blockId,
    label: { type: 'plain_text', text: 'Title' },
    element: { type: 'plain_text_input', action_id: actionId },
  };
}

/** A section block (no input). */
export function sectionBlock(blockId = 'section_block', text = 'Read me'): Record<string, unknown> {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text } };
}

function view(options: ViewOptions): Record<string, unknown> {
  const blocks = options.blocks ?? [inputBlock()];
  const values =
    options.stateValues ??
    Object.fromEntries(
      blocks
        .filter((block) => block.type === 'input')
        .map((block) => [
          block.block_id as string,
          {
            [(block.element as { action_id?: string } | undefined)?.action_id ?? 'input_action']: {
              type: 'plain_text_input',
              value: 'typed',
            },
          },
        ]),
    );
  const teamId = options.teamId ?? SLACK_TEST_IDS.teamId;
  return {
    id: options.viewId ?? `V${String(nextSeq()).padStart(6, '0')}`,
    team_id: teamId,
    type: options.type ?? 'modal',
    blocks,
    private_metadata: '',
    callback_id: options.callbackId ?? 'modal_cb',
    state: { values },
    hash: options.hash ?? `${nextSeq()}.hash`,
    title: { type: 'plain_text', text: 'Modal' },
    clear_on_close: false,
    notify_on_close: true,
    close: null,
    submit: { type: 'plain_text', text: 'Submit' },
    previous_view_id: null,
    root_view_id: null,
    app_id: SLACK_TEST_IDS.apiAppId,
    external_id: '',
    app_installed_team_id: teamId,
    bot_id: SLACK_TEST_IDS.botId,
  };
}

/** Options of a slash command. */
export interface SlashCommandOptions extends InvocationOptions {
  /** With its slash. Default `/rt`. */
  readonly command?: string;
  readonly text?: string;
  readonly channelId?: string;
  /** Default a placeholder URL; pass `fakeSlackApi.responseUrl()` to record replies. */
  readonly responseUrl?: string;
}

/** A slash command, form-encoded as Slack posts it. */
export function buildSlashCommand(
  options: SlashCommandOptions = {},
): SlackTestPayload<Record<string, string>> {
  const fields: Record<string, string> = {
    token: 'legacy-verification-token',
    team_id: options.teamId ?? SLACK_TEST_IDS.teamId,
    team_domain: 'example',
    channel_id: options.channelId ?? SLACK_TEST_IDS.channelId,
    channel_name: 'general',
    user_id: options.userId ?? SLACK_TEST_IDS.userId,
    user_name: 'someone',
    command: options.command ?? '/rt',
    text: options.text ?? '',
    api_app_id: options.apiAppId ?? SLACK_TEST_IDS.apiAppId,
    is_enterprise_install: String(options.isEnterpriseInstall === true),
    response_url: options.responseUrl ?? 'https://hooks.slack.invalid/commands/T0TEAM/1/x',
    trigger_id: triggerOf(options),
  };
  if (options.enterpriseId !== undefined) {
    fields.enterprise_id = options.enterpriseId;
    fields.enterprise_name = 'Example Org';
  }
  return formPayload(fields);
}

/** Options of a `block_actions` payload. */
export interface BlockActionsOptions extends InvocationOptions {
  /** Where the button was: a message (default), a modal, or the App Home tab. */
  readonly from?: 'message' | 'modal' | 'home';
  readonly actionId?: string;
  readonly blockId?: string;
  readonly value?: string;
  /** For select menus: the chosen option's value. */
  readonly selectedValue?: string;
  readonly channelId?: string;
  readonly messageTs?: string;
  readonly threadTs?: string;
  /** From a message: where ephemeral replies go. */
  readonly responseUrl?: string;
  readonly view?: ViewOptions;
}

/** A `block_actions` payload (`payload=<json>` form body). */
export function buildBlockActions(options: BlockActionsOptions = {}): SlackTestPayload {
  const from = options.from ?? 'message';
  const action: Record<string, unknown> = {
    action_id: options.actionId ?? 'button_action',
    block_id: options.blockId ?? 'actions_block',
    type: options.selectedValue !== undefined ? 'static_select' : 'button',
    action_ts: ts(),
  };
  if (options.selectedValue !== undefined) {
    action.selected_option = {
      text: { type: 'plain_text', text: 'x' },
      value: options.selectedValue,
    };
  } else {
    action.text = { type: 'plain_text', text: 'Click' };
    action.value = options.value ?? 'clicked';
  }
  const data: Record<string, unknown> = {
    type: 'block_actions',
    ...common(options),
    trigger_id: triggerOf(options),
    actions: [action],
    state: { values: {} },
  };
  if (from === 'message') {
    const messageTs = options.messageTs ?? ts();
    const channel = options.channelId ?? SLACK_TEST_IDS.channelId;
    data.container = {
      type: 'message',
      message_ts: messageTs,
      channel_id: channel,
      is_ephemeral: false,
      ...(options.threadTs !== undefined ? { thread_ts: options.threadTs } : {}),
    };
    data.channel = { id: channel, name: 'general' };
    data.message = {
      type: 'message',
      user: SLACK_TEST_IDS.botUserId,
      bot_id: SLACK_TEST_IDS.botId,
      ts: messageTs,
      text: 'a message with a button',
      ...(options.threadTs !== undefined ? { thread_ts: options.threadTs } : {}),
    };
    data.response_url = options.responseUrl ?? 'https://hooks.slack.invalid/actions/T0TEAM/1/x';
  } else {
    const built = view({ type: from === 'home' ? 'home' : 'modal', ...options.view });
    data.container = { type: 'view', view_id: built.id };
    data.view = built;
  }
  return interactivePayload(data);
}

/** Options of a `message_action` (message shortcut). */
export interface MessageActionOptions extends InvocationOptions {
  readonly callbackId?: string;
  readonly channelId?: string;
  readonly messageTs?: string;
  readonly responseUrl?: string;
}

/** A `message_action` payload. */
export function buildMessageAction(options: MessageActionOptions = {}): SlackTestPayload {
  const messageTs = options.messageTs ?? ts();
  return interactivePayload({
    type: 'message_action',
    ...common(options),
    action_ts: ts(),
    callback_id: options.callbackId ?? 'message_shortcut',
    trigger_id: triggerOf(options),
    channel: { id: options.channelId ?? SLACK_TEST_IDS.channelId, name: 'general' },
    message_ts: messageTs,
    message: { type: 'message', user: SLACK_TEST_IDS.userId, ts: messageTs, text: 'act on me' },
    response_url: options.responseUrl ?? 'https://hooks.slack.invalid/app/T0TEAM/1/x',
  });
}

/** A global `shortcut` payload (only a `trigger_id` to answer with). */
export function buildShortcut(
  options: InvocationOptions & { callbackId?: string } = {},
): SlackTestPayload {
  return interactivePayload({
    type: 'shortcut',
    ...common(options),
    action_ts: ts(),
    callback_id: options.callbackId ?? 'global_shortcut',
    trigger_id: triggerOf(options),
  });
}

/** Options of a `view_submission`. */
export interface ViewSubmissionOptions extends InvocationOptions {
  /** Default true: the modal has an input block (`input_block`). False: only a section. */
  readonly withInput?: boolean;
  readonly view?: ViewOptions;
}

/** A `view_submission` payload. */
export function buildViewSubmission(options: ViewSubmissionOptions = {}): SlackTestPayload {
  const blocks = options.withInput === false ? [sectionBlock()] : undefined;
  return interactivePayload({
    type: 'view_submission',
    ...common(options),
    trigger_id: triggerOf(options),
    view: view({ ...(blocks ? { blocks } : {}), ...options.view }),
    response_urls: [],
  });
}

/** A `view_closed` payload (sent when `notify_on_close` is set). No trigger id. */
export function buildViewClosed(
  options: InvocationOptions & { view?: ViewOptions } = {},
): SlackTestPayload {
  return interactivePayload({
    type: 'view_closed',
    ...common(options),
    view: view({ ...options.view }),
    is_cleared: false,
  });
}

/** Options of a `block_suggestion` (external select typing). */
export interface BlockSuggestionOptions extends InvocationOptions {
  readonly actionId?: string;
  readonly blockId?: string;
  /** What the user typed. */
  readonly value?: string;
  readonly view?: ViewOptions;
}

/** A `block_suggestion` payload from an external select in a modal. */
export function buildBlockSuggestion(options: BlockSuggestionOptions = {}): SlackTestPayload {
  const built = view({ ...options.view });
  return interactivePayload({
    type: 'block_suggestion',
    ...common(options),
    container: { type: 'view', view_id: built.id },
    action_id: options.actionId ?? 'external_select',
    block_id: options.blockId ?? 'select_block',
    value: options.value ?? 'ab',
    view: built,
  });
}

/** Slack's unsigned certificate probe: `ssl_check=1`. */
export function buildSslCheck(): SlackTestPayload<Record<string, string>> {
  return formPayload({ ssl_check: '1', token: 'legacy-verification-token' });
}
