import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { wireDomains } from '../../src/wiring/publish.js';

// Tests publish and deliver without an app too: the domains' hooks are wired as `buildApp` and the CLI wire them.
wireDomains();

// Runs in every test file before its own code: the folders tempDir made go when the file's tests are done.
afterAll(removeTempDirs);
