// Entry of the drop-in bundle (client/dist/enhance.js): `<script type="module" src="…/enhance.js">` enhances every
// form renderForm wrote on the page; enhanceForm stays exported for pages that enhance forms themselves.

import { autoEnhance } from './enhance.js';

export { autoEnhance, enhanceForm } from './enhance.js';
export type { EnhanceOptions, EnhancedForm } from './enhance.js';

autoEnhance();
