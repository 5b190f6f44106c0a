import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp-dirs.js';

// Runs in every test file before its own code: the folders tempDir made go when the file's tests are done.
afterAll(removeTempDirs);
