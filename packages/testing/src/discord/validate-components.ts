/**
 * What Discord checks in message bodies and modals it receives (shapes and the documented limits:
 * Components V2, action rows, buttons, selects, text inputs, modals), as the fake REST applies it.
 * Returns `path: problem` strings, Discord's "Invalid Form Body" (50035) in words; empty when
 * Discord would accept it. Written from Discord's reference, independently of any renderer.
 */

type Json = Record<string, unknown>;

const IS_COMPONENTS_V2 = 1 << 15;
const ACTION_ROW = 1;
const BUTTON = 2;
const STRING_SELECT = 3;
const TEXT_INPUT = 4;
const SECTION = 9;
const TEXT_DISPLAY = 10;
const THUMBNAIL = 11;
const MEDIA_GALLERY = 12;
const FILE = 13;
const SEPARATOR = 14;
const CONTAINER = 17;
const LABEL = 18;
const SELECTS = new Set([3, 5, 6, 7, 8]);
const V2_TOP_LEVEL = new Set([
  ACTION_ROW,
  SECTION,
  TEXT_DISPLAY,
  MEDIA_GALLERY,
  FILE,
  SEPARATOR,
  CONTAINER,
]);
const IN_CONTAINER = new Set([ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR]);

function length(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

class Checker {
  readonly errors: string[] = [];
  components = 0;
  text = 0;
  readonly customIds: string[] = [];

  uniqueIds(): void {
    if (new Set(this.customIds).size !== this.customIds.length) {
      this.fail('components', 'custom_id values must be unique in a message');
    }
  }

  fail(path: string, problem: string): void {
    this.errors.push(`${path}: ${problem}`);
  }

  string(value: unknown, path: string, max: number, required = true): void {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || value.length === 0)
      this.fail(path, 'must be a non-empty string');
    else if (length(value) > max) this.fail(path, `must be ${max} or fewer in length`);
  }

  options(value: unknown, path: string): void {
    if (!Array.isArray(value) || value.length === 0 || value.length > 25) {
      this.fail(path, 'must have between 1 and 25 options');
      return;
    }
    value.forEach((option: Json, i) => {
      this.string(option?.label, `${path}.${i}.label`, 100);
      this.string(option?.value, `${path}.${i}.value`, 100);
      this.string(option?.description, `${path}.${i}.description`, 100, false);
    });
  }

  button(value: Json, path: string): void {
    const style = value.style;
    if (typeof style !== 'number' || style < 1 || style > 6)
      this.fail(`${path}.style`, 'invalid style');
    if (style === 5) {
      this.string(value.url, `${path}.url`, 512);
      if (value.custom_id !== undefined)
        this.fail(`${path}.custom_id`, 'link buttons cannot have one');
    } else if (style !== 6) {
      this.string(value.custom_id, `${path}.custom_id`, 100);
      if (typeof value.custom_id === 'string') this.customIds.push(value.custom_id);
    }
    this.string(value.label, `${path}.label`, 80, value.emoji === undefined);
  }

  select(value: Json, path: string): void {
    this.string(value.custom_id, `${path}.custom_id`, 100);
    if (typeof value.custom_id === 'string') this.customIds.push(value.custom_id);
    this.string(value.placeholder, `${path}.placeholder`, 150, false);
    if (value.type === STRING_SELECT) this.options(value.options, `${path}.options`);
  }

  row(value: Json, path: string): void {
    const children = value.components;
    if (!Array.isArray(children) || children.length === 0 || children.length > 5) {
      this.fail(`${path}.components`, 'must have between 1 and 5 components');
      return;
    }
    const types = children.map((child: Json) => child?.type);
    if (types.some((type) => SELECTS.has(type as number)) && children.length > 1) {
      this.fail(`${path}.components`, 'a select must be alone in its row');
    }
    children.forEach((child: Json, i) => {
      this.components += 1;
      const at = `${path}.components.${i}`;
      if (child?.type === BUTTON) this.button(child, at);
      else if (SELECTS.has(child?.type as number)) this.select(child, at);
      else this.fail(`${at}.type`, 'not allowed in an action row');
    });
  }

  component(value: unknown, path: string, allowed: ReadonlySet<number>): void {
    if (typeof value !== 'object' || value === null) {
      this.fail(path, 'must be an object');
      return;
    }
    const component = value as Json;
    const type = component.type as number;
    if (!allowed.has(type)) {
      this.fail(`${path}.type`, `component type ${String(type)} is not allowed here`);
      return;
    }
    this.components += 1;
    switch (type) {
      case ACTION_ROW:
        this.row(component, path);
        return;
      case TEXT_DISPLAY:
        this.string(component.content, `${path}.content`, 4000);
        this.text += length(component.content);
        return;
      case MEDIA_GALLERY: {
        const items = component.items;
        if (!Array.isArray(items) || items.length === 0 || items.length > 10) {
          this.fail(`${path}.items`, 'must have between 1 and 10 items');
          return;
        }
        items.forEach((item: Json, i) => {
          this.string((item?.media as Json | undefined)?.url, `${path}.items.${i}.media.url`, 2048);
          this.string(item?.description, `${path}.items.${i}.description`, 1024, false);
        });
        return;
      }
      case SEPARATOR:
        if (component.spacing !== undefined && component.spacing !== 1 && component.spacing !== 2) {
          this.fail(`${path}.spacing`, 'must be 1 or 2');
        }
        return;
      case CONTAINER: {
        const children = component.components;
        if (!Array.isArray(children) || children.length === 0) {
          this.fail(`${path}.components`, 'must not be empty');
          return;
        }
        children.forEach((child, i) => {
          this.component(child, `${path}.components.${i}`, IN_CONTAINER);
        });
        return;
      }
      case SECTION: {
        const children = component.components;
        if (!Array.isArray(children) || children.length === 0 || children.length > 3) {
          this.fail(`${path}.components`, 'must have between 1 and 3 text displays');
        } else {
          children.forEach((child, i) => {
            this.component(child, `${path}.components.${i}`, new Set([TEXT_DISPLAY]));
          });
        }
        this.component(component.accessory, `${path}.accessory`, new Set([BUTTON, THUMBNAIL]));
        return;
      }
      default:
        return;
    }
  }
}

/** Discord's complaints about a message body (create, edit, follow-up, type 4/7 data). */
export function validateDiscordMessage(body: unknown): string[] {
  const checker = new Checker();
  if (typeof body !== 'object' || body === null) {
    checker.fail('body', 'must be an object');
    return checker.errors;
  }
  const message = body as Json;
  const flags = typeof message.flags === 'number' ? message.flags : 0;
  const components = message.components;
  if ((flags & IS_COMPONENTS_V2) !== 0) {
    if (message.content !== undefined && message.content !== '') {
      checker.fail('content', 'cannot be used with IS_COMPONENTS_V2');
    }
    if (message.embeds !== undefined)
      checker.fail('embeds', 'cannot be used with IS_COMPONENTS_V2');
    if (!Array.isArray(components) || components.length === 0) {
      checker.fail('components', 'must not be empty with IS_COMPONENTS_V2');
      return checker.errors;
    }
    components.forEach((component, i) => {
      checker.component(component, `components.${i}`, V2_TOP_LEVEL);
    });
    if (checker.components > 40) checker.fail('components', 'must have 40 or fewer components');
    if (checker.text > 4000)
      checker.fail('components', 'text displays must be 4000 or fewer in length');
    return checker.errors;
  }
  if (length(message.content) > 2000) checker.fail('content', 'must be 2000 or fewer in length');
  if (components !== undefined) {
    if (!Array.isArray(components) || components.length > 5) {
      checker.fail('components', 'must have 5 or fewer action rows');
    } else {
      components.forEach((component, i) => {
        checker.component(component, `components.${i}`, new Set([ACTION_ROW]));
      });
    }
  }
  checker.uniqueIds();
  const empty =
    length(message.content) === 0 &&
    (!Array.isArray(message.embeds) || message.embeds.length === 0) &&
    (!Array.isArray(components) || components.length === 0) &&
    message.attachments === undefined &&
    message.sticker_ids === undefined &&
    message.poll === undefined;
  // An edit may change flags alone; a new message must say something.
  if (empty && message.flags === undefined) checker.fail('content', 'cannot send an empty message');
  return checker.errors;
}

/** Discord's complaints about a modal (the `data` of a type 9 callback). */
export function validateDiscordModal(modal: unknown): string[] {
  const checker = new Checker();
  if (typeof modal !== 'object' || modal === null) {
    checker.fail('data', 'must be an object');
    return checker.errors;
  }
  const data = modal as Json;
  checker.string(data.custom_id, 'data.custom_id', 100);
  checker.string(data.title, 'data.title', 45);
  const components = data.components;
  if (!Array.isArray(components) || components.length === 0 || components.length > 5) {
    checker.fail('data.components', 'must have between 1 and 5 components');
    return checker.errors;
  }
  components.forEach((component: Json, i) => {
    const path = `data.components.${i}`;
    if (component?.type === TEXT_DISPLAY) {
      checker.string(component.content, `${path}.content`, 4000);
      return;
    }
    const inner =
      component?.type === LABEL
        ? (component.component as Json | undefined)
        : component?.type === ACTION_ROW && Array.isArray(component.components)
          ? (component.components[0] as Json | undefined)
          : undefined;
    if (component?.type === LABEL) {
      checker.string(component.label, `${path}.label`, 45);
      checker.string(component.description, `${path}.description`, 100, false);
    }
    if (inner === undefined) {
      checker.fail(`${path}.type`, 'must be a label, a text display or a row with a text input');
      return;
    }
    const at = component?.type === LABEL ? `${path}.component` : `${path}.components.0`;
    if (inner.type === TEXT_INPUT) {
      checker.string(inner.custom_id, `${at}.custom_id`, 100);
      if (inner.style !== 1 && inner.style !== 2) checker.fail(`${at}.style`, 'must be 1 or 2');
      checker.string(inner.value, `${at}.value`, 4000, false);
      checker.string(inner.placeholder, `${at}.placeholder`, 100, false);
      if (
        inner.max_length !== undefined &&
        (typeof inner.max_length !== 'number' || inner.max_length > 4000)
      ) {
        checker.fail(`${at}.max_length`, 'must be 4000 or less');
      }
      if (component?.type !== LABEL && inner.label === undefined)
        checker.fail(`${at}.label`, 'is required');
    } else if (inner.type === STRING_SELECT && component?.type === LABEL) {
      checker.select(inner, at);
    } else {
      checker.fail(`${at}.type`, 'not allowed in a modal here');
    }
  });
  return checker.errors;
}

/** Discord's complaints about an interaction callback (`{ type, data }`). */
export function validateDiscordCallback(callback: unknown): string[] {
  const { type, data } = (callback ?? {}) as { type?: unknown; data?: unknown };
  if (type === 4 || type === 7) return validateDiscordMessage(data ?? {});
  if (type === 9) return validateDiscordModal(data);
  if (typeof type !== 'number' || type < 1 || type > 12)
    return [`type: invalid callback type ${String(type)}`];
  return [];
}
