// Public API of the form rules (DESIGN: shared by the server and the browser renderer; no Node APIs).

export type {
  Condition,
  ConditionOp,
  ConditionRule,
  FieldTranslation,
  FieldType,
  FormDefinition,
  FormField,
  FormOption,
  FormSettings,
  SubmittedValue,
} from './types.js';
export {
  CHOICE_TYPES,
  CONDITION_OPS,
  DEFAULT_HONEYPOT,
  FIELD_TYPES,
  NON_SUBMITTED_TYPES,
  isSubmittedType,
} from './types.js';

export type { FieldError, FieldErrorCode, FieldErrorParams, FormErrorCode, MessageVariant } from './codes.js';
export {
  FIELD_ERROR_CODES,
  FORM_ERROR_CODES,
  fieldError,
  isFieldErrorCode,
  isFormErrorCode,
} from './codes.js';

export type { ConditionValues } from './conditions.js';
export {
  evaluateCondition,
  evaluateRule,
  hiddenValues,
  isEmptyValue,
  visibleFields,
  walkVisibility,
} from './conditions.js';

export type { Coerced } from './coerce.js';
export { coerceValue, conditionValue, normalizeText, withDefault } from './coerce.js';

export { decimalPlaces, isOnStep, parseDecimal } from './step.js';
export { daysInMonth, isValidDate, isValidTime, resolveDateBound, todayIn } from './dates.js';

export type { CheckContext } from './field-checks.js';
export { MAX_LENGTH, checkValue, isEmail, isHttpUrl, isTel, textLength } from './field-checks.js';
export { hasBidiControl, normalizeEmail } from './email.js';

export type { UploadVerifier } from './files.js';
export { DEFAULT_MAX_FILES, UPLOAD_ID, isUploadId, matchesAccept, maxFilesOf } from './files.js';

export type { FieldResult, ValidateOptions, ValidationResult } from './validate.js';
export { resolveListOptions, validateFieldValue, validateSubmission } from './validate.js';

export type { FormStatus, StatusContext } from './status.js';
export { formStatus, statusErrorCode, usesTurnstile } from './status.js';

export type { FormEntry } from './form-data.js';
export { formDataToRecord } from './form-data.js';

export type { Catalog, MessageCode, SpaceLocale, TemplateParams } from './catalogs/index.js';
export {
  CATALOGS,
  SHIPPED_LOCALES,
  catalogFor,
  catalogMessage,
  fallbackChain,
  formatTemplate,
  isMessageCode,
  labelled,
  variantFor,
  messageKeys,
} from './catalogs/index.js';
