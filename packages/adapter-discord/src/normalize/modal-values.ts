/** What one field of a submitted modal holds: a text input's text, or a select's chosen values. */
export type ModalValue = string | readonly string[];

interface RawComponent {
  readonly custom_id?: unknown;
  readonly value?: unknown;
  readonly values?: unknown;
  readonly components?: unknown;
  readonly component?: unknown;
}

function collect(raw: unknown, into: Record<string, ModalValue>, depth: number): void {
  if (depth > 4 || raw === null || typeof raw !== 'object') return;
  if (Array.isArray(raw)) {
    for (const item of raw) collect(item, into, depth + 1);
    return;
  }
  const component = raw as RawComponent;
  if (typeof component.custom_id === 'string') {
    if (typeof component.value === 'string') into[component.custom_id] = component.value;
    else if (Array.isArray(component.values)) {
      into[component.custom_id] = component.values.filter(
        (v): v is string => typeof v === 'string',
      );
    }
  }
  collect(component.components, into, depth + 1);
  collect(component.component, into, depth + 1);
}

/**
 * The field values of a modal submit's `data.components`, by each field's `custom_id`: text inputs
 * give their text, selects their values. Walks action rows and labels (Discord's two layouts);
 * malformed entries are skipped, never thrown on.
 */
export function modalValuesFrom(components: unknown): Readonly<Record<string, ModalValue>> {
  const values: Record<string, ModalValue> = {};
  collect(components, values, 0);
  return values;
}
