/** The module test/client/browser.test.ts bundles for its page: the client and the errors, as `globalThis.plume`. */
import * as errors from '../../src/errors/index.js';
import { createClient, withAuthentication } from '../../src/client/index.js';

const plume = { createClient, withAuthentication, errors };
(globalThis as unknown as { plume: typeof plume }).plume = plume;

export { createClient, withAuthentication, errors };
