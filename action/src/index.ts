// The entry point GitHub runs (bundled into action/index.cjs): the logic is in main.ts.
import { run } from './main.js';

void run();
