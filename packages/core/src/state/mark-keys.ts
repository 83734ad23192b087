/**
 * The form of rt's dedupe mark keys: `<kind>:<adapter>:<tenant>:<id>`, every part after the kind
 * URI-encoded so none contains a `:`. The runtime's primary identity key of an event is the kind
 * `event` (`event:<adapter>:<tenant>:<event id>`); other identities of the same delivery use
 * their own kind (`message:...`) under the same installation. A State reads nothing else from a
 * key: `markKeyInstallation` is how a sharded store keeps one installation's marks together.
 */

import { installationPart, keyPart } from '../util/key-part.js';

/** The most keys one `markEvents` call takes. */
export const MAX_MARK_KEYS = 16;

const KIND = /^[a-z][a-z0-9-]*$/;

/**
 * The mark key of identity `id` of kind `kind` in installation `(adapter, tenant)`. `kind` is a
 * lower-case word (`event`, `message`, `message-edit`: letters, digits and `-`, starting with a
 * letter); `adapter`, `tenant` and `id` are non-empty strings, URI-encoded here, so the key is
 * unambiguous for any of them. For `kind` `event` it is exactly the runtime's dedupe key of the
 * event. Throws `TypeError` naming the bad argument.
 */
export function installationMarkKey(
  kind: string,
  adapter: string,
  tenant: string,
  id: string,
): string {
  if (typeof kind !== 'string' || !KIND.test(kind)) {
    throw new TypeError(
      `kind must be a lower-case word (letters, digits, '-'), got ${JSON.stringify(kind)}`,
    );
  }
  assertPart('adapter', adapter);
  assertPart('tenant', tenant);
  assertPart('id', id);
  return `${kind}:${installationPart(adapter, tenant)}:${keyPart(id)}`;
}

/** Throws `TypeError` unless `value` is a non-empty string (a key part named `name`). */
function assertPart(name: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${name} must be a non-empty string`);
  }
}

/**
 * The installation part (`<adapter>:<tenant>`, still encoded) of a key in the form
 * `<kind>:<adapter>:<tenant>:<rest>` with four non-empty parts (`<rest>` may contain more `:`),
 * or `undefined` for any other key. Keys of one installation give the same string whatever their
 * kind and id.
 */
export function markKeyInstallation(key: string): string | undefined {
  const afterKind = key.indexOf(':');
  if (afterKind <= 0) return undefined;
  const afterAdapter = key.indexOf(':', afterKind + 1);
  if (afterAdapter <= afterKind + 1) return undefined;
  const afterTenant = key.indexOf(':', afterAdapter + 1);
  if (afterTenant <= afterAdapter + 1 || afterTenant === key.length - 1) return undefined;
  return key.slice(afterKind + 1, afterTenant);
}

/**
 * `markKeyInstallation(key) === installation` for an `installation` of the form
 * `<adapter>:<tenant>` (two non-empty encoded parts, as `markKeyInstallation` returns them),
 * without building a substring: what validators call once per key of every delivery.
 */
export function isKeyOfInstallation(key: string, installation: string): boolean {
  const afterKind = key.indexOf(':');
  if (afterKind <= 0 || !key.startsWith(installation, afterKind + 1)) return false;
  const end = afterKind + 1 + installation.length;
  return key.charCodeAt(end) === COLON && end < key.length - 1;
}

const COLON = 58;
