// The options a submission chose: one row per choice field and value in `submission_options`
// (migration 0027), so a filter by an option is counted and paged from an index range instead of each
// submission's JSON. Pure: the definition's field types decide which values are options.

/** What the extraction reads of a field: stored definitions are read defensively, so `type` is any string. */
export interface TypedKey {
  key: string;
  type: string;
}

/** Field types whose values are options of a fixed set (spec 2.10); `checkbox` is yes or no. */
export const CHOICE_TYPES: ReadonlySet<string> = new Set(['select', 'radio', 'checkboxes', 'checkbox']);

/** A stored option longer than this is not one the form offered (spam keeps raw values): it gets no row. */
export const MAX_OPTION_LENGTH = 500;

export interface ChosenOption {
  fieldKey: string;
  /** As the inbox's `field[<key>]` filter compares it: the option's value, `true`/`false` for a checkbox. */
  value: string;
}

/** The keys of a definition's choice fields. */
export function choiceKeys(fields: readonly TypedKey[]): string[] {
  return fields.filter((f) => CHOICE_TYPES.has(f.type)).map((f) => f.key);
}

/** Each option under the choice fields' keys of `values`: a string, each string of a list, or a boolean. */
export function chosenOptions(
  fields: readonly TypedKey[],
  values: Readonly<Record<string, unknown>>,
): ChosenOption[] {
  const out: ChosenOption[] = [];
  for (const fieldKey of choiceKeys(fields)) {
    if (!Object.hasOwn(values, fieldKey)) continue;
    const raw = values[fieldKey];
    const items = Array.isArray(raw) ? raw : [raw];
    const seen = new Set<string>();
    for (const item of items) {
      const value = typeof item === 'boolean' ? String(item) : typeof item === 'string' ? item : null;
      if (value === null || value.length > MAX_OPTION_LENGTH || seen.has(value)) continue;
      seen.add(value);
      out.push({ fieldKey, value });
    }
  }
  return out;
}
