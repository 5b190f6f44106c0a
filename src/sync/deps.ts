// What a published entry version shows of other documents, as the dependency index keeps it (entry_deps). The
// same walk delivery uses to load what it renders (`collectNeeds`), so the index names exactly what a rendered
// answer can show: linked entries (their path and name in `included.links`), referenced entries by field key
// (their visibility; with `include`, all of them), assets and forms.

import type { EntrySnapshot, TypeMap } from '../content/model.js';
import { collectNeeds, emptyNeeds } from '../delivery/render-fields.js';

export type DepKind = 'link' | 'ref' | 'asset' | 'form';

export interface Dep {
  kind: DepKind;
  target: string;
  /** `ref`: the reference field's key (what `include` names); '' for the others. */
  field: string;
}

/** The dependencies of one version, each once, in a fixed order. */
export function depsOf(snapshot: EntrySnapshot, types: TypeMap): Dep[] {
  const type = types.get(snapshot.type);
  if (type === undefined) return [];
  const needs = emptyNeeds();
  collectNeeds(snapshot.fields, type, types, needs);
  const out: Dep[] = [];
  for (const target of [...needs.links].sort()) out.push({ kind: 'link', target, field: '' });
  for (const [field, ids] of [...needs.refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    for (const target of [...ids].sort()) out.push({ kind: 'ref', target, field });
  for (const target of [...needs.assets].sort()) out.push({ kind: 'asset', target, field: '' });
  for (const target of [...needs.forms].sort()) out.push({ kind: 'form', target, field: '' });
  return out;
}
