// @folio/astro: Astro 5 Content Layer loaders over a Folio space (pinned to one cv per build, incremental through
// /sync) and the contact form helper. docs/astro.md.

export { createFolioSource, type FolioSource, type FolioSourceOptions } from './source.js';
export {
  folioEntriesLoader,
  type FolioEntryData,
  folioEntrySchema,
  folioMenusLoader,
  type FolioMenuData,
  folioMenuSchema,
  type LoadReport,
} from './loader.js';
export { type FolioFormOptions, renderFolioForm } from './form.js';
