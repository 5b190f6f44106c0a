import { registerPublishHooks } from '../content/publish-hooks.js';
import { listPublishHooks } from '../delivery/list/publish-hooks.js';
import { registerFormsLoader } from '../delivery/form-fields.js';
import { formsForEntries } from '../forms/delivery/deliver-service.js';
import { menuPublishHooks } from '../menus/menu-ops.js';
import { redirectPublishHooks } from '../redirects/auto-redirects.js';
import { searchPublishHooks } from '../search/queue.js';
import { depsPublishHooks } from '../sync/deps-hooks.js';

/**
 * Hands the lower domains what the higher ones do for them, so no folder imports another in a circle
 * (docs/architecture.md): publishing derives list rows, the semantic index's queue, the dependency index `/sync` reads, automatic redirects and
 * `menu.updated` through hooks (the order here is the order they run in a publish), and delivery loads the
 * forms named by form fields through forms/. Idempotent; `buildApp`, the CLI and the test setup call it.
 */
export function wireDomains(): void {
  registerPublishHooks('lists', listPublishHooks);
  registerPublishHooks('search', searchPublishHooks);
  registerPublishHooks('deps', depsPublishHooks);
  registerPublishHooks('redirects', redirectPublishHooks);
  registerPublishHooks('menus', menuPublishHooks);
  registerFormsLoader(formsForEntries);
}
