// @folio/client/forms: render a delivered form as HTML that works without JavaScript (renderForm, on a server or
// in the browser), and enhance it in the browser (enhanceForm). docs/forms-renderer.md.

export { renderForm, renderSuccess, readFormError, submitUrl } from '../../../src/forms/render/render.js';
export type { RenderOptions } from '../../../src/forms/render/render.js';
export { readDraft, readFormResult } from './round-trip.js';
export type { FormResult, ReadDraftOptions } from './round-trip.js';
export type { FieldError, PrefillValue } from '../../../src/forms/render/render-field.js';
export { autocompleteFor } from '../../../src/forms/render/render-field.js';
export { DefinitionError, parseDeliveredForm } from './definition.js';
export type { DeliveredField, DeliveredForm } from './definition.js';
export {
  DEFAULT_MESSAGES,
  formErrorMessage,
  messageFor,
  resolveMessages,
} from '../../../src/forms/render/messages.js';
export {
  CATALOGS,
  SHIPPED_LOCALES,
  catalogFor,
  fallbackChain,
  labelled,
} from '../../../src/forms/rules/index.js';
export type { Catalog, SpaceLocale } from '../../../src/forms/rules/index.js';
export type { MessageKey, Messages } from '../../../src/forms/render/messages.js';
export { autoEnhance, enhanceForm } from './enhance.js';
export type { EnhanceOptions, EnhancedForm } from './enhance.js';
