/**
 * The parts of Slack payloads the adapter reads. Every field is optional because Slack's payloads
 * vary by surface and install type; handlers get the untouched payload on `RtEvent.payload`.
 */

/** One entry of an Events API `authorizations` list. */
export interface SlackAuthorization {
  readonly enterprise_id?: string | null;
  readonly team_id?: string | null;
  readonly user_id?: string;
  readonly is_bot?: boolean;
  readonly is_enterprise_install?: boolean;
}

/** The inner `event` of an `event_callback`. */
export interface SlackInnerEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly user?: string;
  readonly bot_id?: string;
  readonly app_id?: string;
  /** Present on bot messages; `app_id` names the app whose bot wrote it. */
  readonly bot_profile?: { readonly app_id?: string; readonly [key: string]: unknown } | null;
  readonly text?: string;
  readonly channel?: string;
  readonly ts?: string;
  readonly thread_ts?: string;
  readonly event_ts?: string;
  readonly reaction?: string;
  readonly item?: { readonly type?: string; readonly channel?: string; readonly ts?: string };
  readonly [key: string]: unknown;
}

/** An Events API `event_callback` envelope. */
export interface SlackEventCallback {
  readonly type: 'event_callback';
  readonly token?: string;
  readonly team_id?: string;
  readonly enterprise_id?: string | null;
  readonly api_app_id?: string;
  readonly is_enterprise_install?: boolean;
  readonly event_id: string;
  readonly event_time?: number;
  readonly authorizations?: readonly SlackAuthorization[];
  readonly event: SlackInnerEvent;
  readonly [key: string]: unknown;
}

/** An `app_rate_limited` notice (no inner event). */
export interface SlackAppRateLimited {
  readonly type: 'app_rate_limited';
  readonly team_id?: string;
  readonly minute_rate_limited?: number;
  readonly api_app_id?: string;
  readonly [key: string]: unknown;
}

/** A slash command, as its form fields. */
export interface SlackSlashCommand {
  readonly command: string;
  readonly text?: string;
  readonly team_id?: string;
  readonly enterprise_id?: string;
  readonly is_enterprise_install?: string;
  readonly channel_id?: string;
  readonly user_id?: string;
  readonly trigger_id?: string;
  readonly response_url?: string;
  readonly api_app_id?: string;
  readonly [key: string]: string | undefined;
}

/** A block in a view or message. */
export interface SlackBlock {
  readonly type?: string;
  readonly block_id?: string;
  readonly [key: string]: unknown;
}

/** A view (modal or App Home) as carried by interactive payloads. */
export interface SlackView {
  readonly id?: string;
  readonly hash?: string;
  readonly type?: string;
  readonly callback_id?: string;
  readonly team_id?: string;
  readonly app_installed_team_id?: string;
  readonly blocks?: readonly SlackBlock[];
  readonly state?: {
    readonly values?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
  readonly [key: string]: unknown;
}

/** One action of a `block_actions` payload. */
export interface SlackAction {
  readonly action_id?: string;
  readonly block_id?: string;
  readonly value?: string;
  readonly selected_option?: { readonly value?: string };
  readonly [key: string]: unknown;
}

/** Any interactive payload (`payload=<json>` form field). */
export interface SlackInteractive {
  readonly type: string;
  readonly team?: { readonly id?: string | null; readonly enterprise_id?: string } | null;
  readonly enterprise?: { readonly id?: string } | null;
  readonly is_enterprise_install?: boolean;
  readonly user?: { readonly id?: string; readonly team_id?: string };
  readonly channel?: { readonly id?: string };
  readonly container?: {
    readonly type?: string;
    readonly channel_id?: string;
    readonly message_ts?: string;
    readonly thread_ts?: string;
    readonly view_id?: string;
  };
  readonly message?: { readonly ts?: string; readonly thread_ts?: string; readonly text?: string };
  readonly view?: SlackView;
  readonly actions?: readonly SlackAction[];
  readonly action_id?: string;
  readonly block_id?: string;
  readonly value?: string;
  readonly callback_id?: string;
  readonly trigger_id?: string;
  readonly response_url?: string;
  readonly response_urls?: readonly { readonly response_url?: string }[];
  readonly api_app_id?: string;
  readonly [key: string]: unknown;
}
