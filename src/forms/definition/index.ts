// Public API of form definitions: authoring validation and delivery (spec 2.9–2.12).

export type { DefinitionError, DefinitionOptions, DefinitionResult } from './validate-definition.js';
export { RESERVED_KEYS, formatDefinitionErrors, validateFormDefinition } from './validate-definition.js';
export { KEY_FORMAT } from './check-field.js';
export { MAX_FILES_LIMIT, MAX_FILE_SIZE } from './check-field-settings.js';
export { MAX_NOTIFY_ADDRESSES, MAX_ROUTED_RECIPIENTS, isTimestamp } from './check-settings.js';
export type { DeliverOptions, DeliveredField, DeliveredForm, ListOption } from './deliver.js';
export { DEFAULT_SUCCESS_MESSAGE, deliverForm, fullChain, localizeField, resolveText } from './deliver.js';
