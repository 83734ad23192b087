/** A request body as Slack sends it, with the parsed data it was built from. */
export interface SlackTestPayload<Data = Record<string, unknown>> {
  /** `application/json` (Events API) or `application/x-www-form-urlencoded` (the rest). */
  readonly contentType: string;
  /** The exact body to send (and sign). */
  readonly body: string;
  /** The JSON payload or the form fields the body encodes. */
  readonly data: Data;
}

/** An Events API style body: the object as JSON. */
export function jsonPayload<Data extends Record<string, unknown>>(
  data: Data,
): SlackTestPayload<Data> {
  return { contentType: 'application/json', body: JSON.stringify(data), data };
}

/** A slash-command style body: the fields form-encoded. */
export function formPayload<Data extends Record<string, string>>(
  data: Data,
): SlackTestPayload<Data> {
  return {
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams(data).toString(),
    data,
  };
}

/** An interactivity style body: `payload=<json>` form-encoded. */
export function interactivePayload<Data extends Record<string, unknown>>(
  data: Data,
): SlackTestPayload<Data> {
  return {
    contentType: 'application/x-www-form-urlencoded',
    body: new URLSearchParams({ payload: JSON.stringify(data) }).toString(),
    data,
  };
}

let counter = 0;

/** A fresh suffix for ids (`Ev…`, trigger ids, timestamps) so builders never repeat themselves. */
export function nextSeq(): number {
  counter += 1;
  return counter;
}
