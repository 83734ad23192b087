/**
 * Discord's documented limits on messages, Components V2 and modals (discord.com/developers/docs:
 * Message Components reference, "Create Message" and "Interactions: modal"), checked by the
 * renderer before any call. Figures as documented in 2026; each key is the limit's name in
 * `MessageLimitError.limit`.
 */
export const DISCORD_LIMITS = Object.freeze({
  /** `content` of a message without Components V2 (longer neutral text is split instead). */
  'message content': 2000,
  /** Components V2: every component counts, nested ones included. */
  'components per message': 40,
  /** Components V2: the text of every text display of one message together. */
  'text display characters': 4000,
  'button label': 80,
  custom_id: 100,
  'button url': 512,
  'options per select': 25,
  'option label': 100,
  'option value': 100,
  'option description': 100,
  placeholder: 150,
  'media description': 1024,
  'modal title': 45,
  'components per modal': 5,
  'label text': 45,
  'text input value': 4000,
  'text input placeholder': 100,
  'text input max length': 4000,
} as const);

/** A Discord limit's name. */
export type DiscordLimit = keyof typeof DISCORD_LIMITS;
