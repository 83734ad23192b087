/**
 * What Slack checks in Block Kit it receives (shapes and the documented limits), as the fake Web
 * API applies it: `chat.postMessage`, `chat.update`, `chat.postEphemeral` and `response_url`
 * bodies with `blocks`, and the `view` of `views.open/push/update`. Returns Slack-style error
 * strings (`[ERROR] ... [json-pointer:/blocks/0/text]`); empty when Slack would accept it.
 * Written from Slack's reference, independently of any renderer.
 */

type Json = Record<string, unknown>;

const BLOCK_TYPES_IN_MESSAGES = new Set([
  'section',
  'header',
  'divider',
  'image',
  'context',
  'actions',
  'rich_text',
  'input',
  'file',
  'video',
  'markdown',
]);

class Checker {
  readonly errors: string[] = [];

  fail(pointer: string, message: string): void {
    this.errors.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }

  object(value: unknown, pointer: string): value is Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail(pointer, 'must be an object');
      return false;
    }
    return true;
  }

  length(value: unknown, pointer: string, max: number, required = true): void {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value.length === 0) {
      this.fail(pointer, 'must be a non-empty string');
      return;
    }
    const length = [...value].length;
    if (length > max) this.fail(pointer, `must be less than ${max + 1} characters`);
  }

  textObject(value: unknown, pointer: string, max: number, plainOnly = false): void {
    if (!this.object(value, pointer)) return;
    if (value.type !== 'plain_text' && (plainOnly || value.type !== 'mrkdwn')) {
      this.fail(
        `${pointer}/type`,
        plainOnly ? 'must be plain_text' : 'must be plain_text or mrkdwn',
      );
    }
    this.length(value.text, `${pointer}/text`, max);
  }

  option(value: unknown, pointer: string): void {
    if (!this.object(value, pointer)) return;
    this.textObject(value.text, `${pointer}/text`, 75, true);
    this.length(value.value, `${pointer}/value`, 150);
    if (value.description !== undefined)
      this.textObject(value.description, `${pointer}/description`, 75, true);
  }

  element(value: unknown, pointer: string): void {
    if (!this.object(value, pointer)) return;
    if (value.action_id !== undefined) this.length(value.action_id, `${pointer}/action_id`, 255);
    switch (value.type) {
      case 'button':
        this.textObject(value.text, `${pointer}/text`, 75, true);
        if (value.value !== undefined) this.length(value.value, `${pointer}/value`, 2000);
        if (value.url !== undefined) this.length(value.url, `${pointer}/url`, 3000);
        if (value.style !== undefined && value.style !== 'primary' && value.style !== 'danger') {
          this.fail(`${pointer}/style`, 'must be primary or danger');
        }
        return;
      case 'static_select':
      case 'overflow': {
        const options = value.options;
        if (!Array.isArray(options) || options.length === 0) {
          this.fail(`${pointer}/options`, 'must be a non-empty array');
          return;
        }
        const max = value.type === 'overflow' ? 5 : 100;
        if (options.length > max) this.fail(`${pointer}/options`, `must have at most ${max} items`);
        options.forEach((option, i) => {
          this.option(option, `${pointer}/options/${i}`);
        });
        if (value.placeholder !== undefined)
          this.textObject(value.placeholder, `${pointer}/placeholder`, 150, true);
        if (value.initial_option !== undefined)
          this.option(value.initial_option, `${pointer}/initial_option`);
        return;
      }
      case 'plain_text_input':
        if (value.placeholder !== undefined)
          this.textObject(value.placeholder, `${pointer}/placeholder`, 150, true);
        if (value.initial_value !== undefined && typeof value.initial_value !== 'string') {
          this.fail(`${pointer}/initial_value`, 'must be a string');
        }
        if (
          value.max_length !== undefined &&
          (typeof value.max_length !== 'number' || value.max_length > 3000)
        ) {
          this.fail(`${pointer}/max_length`, 'must be a number up to 3000');
        }
        return;
      default:
        if (typeof value.type !== 'string') this.fail(`${pointer}/type`, 'is required');
    }
  }

  block(value: unknown, pointer: string, inModal: boolean): void {
    if (!this.object(value, pointer)) return;
    const type = value.type;
    if (typeof type !== 'string' || !BLOCK_TYPES_IN_MESSAGES.has(type)) {
      this.fail(`${pointer}/type`, `unsupported block type ${JSON.stringify(type)}`);
      return;
    }
    if (value.block_id !== undefined) this.length(value.block_id, `${pointer}/block_id`, 255);
    switch (type) {
      case 'header':
        this.textObject(value.text, `${pointer}/text`, 150, true);
        return;
      case 'section': {
        if (value.text === undefined && value.fields === undefined) {
          this.fail(pointer, 'must provide text or fields');
        }
        if (value.text !== undefined) this.textObject(value.text, `${pointer}/text`, 3000);
        if (value.fields !== undefined) {
          if (!Array.isArray(value.fields) || value.fields.length > 10) {
            this.fail(`${pointer}/fields`, 'must be an array of at most 10 items');
          } else {
            value.fields.forEach((field, i) => {
              this.textObject(field, `${pointer}/fields/${i}`, 2000);
            });
          }
        }
        if (value.accessory !== undefined) this.element(value.accessory, `${pointer}/accessory`);
        return;
      }
      case 'image':
        this.length(value.image_url, `${pointer}/image_url`, 3000);
        this.length(value.alt_text, `${pointer}/alt_text`, 2000);
        return;
      case 'context': {
        const elements = value.elements;
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > 10) {
          this.fail(`${pointer}/elements`, 'must be an array of 1 to 10 items');
          return;
        }
        elements.forEach((element, i) => {
          const at = `${pointer}/elements/${i}`;
          if ((element as Json)?.type === 'image') return;
          this.textObject(element, at, 3000);
        });
        return;
      }
      case 'actions': {
        const elements = value.elements;
        if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) {
          this.fail(`${pointer}/elements`, 'must be an array of 1 to 25 items');
          return;
        }
        elements.forEach((element, i) => {
          this.element(element, `${pointer}/elements/${i}`);
        });
        const ids = elements
          .map((element) => (element as Json)?.action_id)
          .filter((id): id is string => typeof id === 'string');
        if (new Set(ids).size !== ids.length) {
          this.fail(`${pointer}/elements`, 'action_id values must be unique within a block');
        }
        return;
      }
      case 'input':
        if (!inModal) this.fail(pointer, 'input blocks are only valid in modals');
        this.textObject(value.label, `${pointer}/label`, 2000, true);
        this.element(value.element, `${pointer}/element`);
        return;
      default:
        return;
    }
  }

  blocks(value: unknown, pointer: string, max: number, inModal: boolean): void {
    if (!Array.isArray(value)) {
      this.fail(pointer, 'must be an array');
      return;
    }
    if (value.length > max) this.fail(pointer, `must have at most ${max} items`);
    value.forEach((block, i) => {
      this.block(block, `${pointer}/${i}`, inModal);
    });
  }
}

/** Slack's complaints about a message body (`text`, `blocks`); `[]` when it is accepted. */
export function validateSlackMessage(args: Readonly<Record<string, unknown>>): string[] {
  const checker = new Checker();
  if (typeof args.text === 'string' && [...args.text].length > 40_000) {
    checker.fail('/text', 'must be less than 40001 characters');
  }
  if (args.blocks !== undefined) checker.blocks(args.blocks, '/blocks', 50, false);
  else if (typeof args.text !== 'string' || args.text.length === 0) {
    if (args.attachments === undefined) checker.fail('/text', 'text or blocks is required');
  }
  return checker.errors;
}

/** Slack's complaints about a modal `view`; `[]` when it is accepted. */
export function validateSlackView(view: unknown): string[] {
  const checker = new Checker();
  if (!checker.object(view, '/view')) return checker.errors;
  if (view.type !== 'modal' && view.type !== 'home')
    checker.fail('/view/type', 'must be modal or home');
  if (view.type === 'modal') {
    checker.textObject(view.title, '/view/title', 24, true);
    if (view.submit !== undefined) checker.textObject(view.submit, '/view/submit', 24, true);
    if (view.close !== undefined) checker.textObject(view.close, '/view/close', 24, true);
    const hasInput =
      Array.isArray(view.blocks) && view.blocks.some((b) => (b as Json)?.type === 'input');
    if (hasInput && view.submit === undefined)
      checker.fail('/view/submit', 'is required with input blocks');
  }
  if (view.callback_id !== undefined) checker.length(view.callback_id, '/view/callback_id', 255);
  checker.blocks(view.blocks, '/view/blocks', 100, true);
  return checker.errors;
}
