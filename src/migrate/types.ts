import type { Span } from '../model/index.js';

/** One thing the migration did, or (manual) one it leaves to the user, at the place in the original file. */
export interface Step {
  span: Span;
  message: string;
  /** Not rewritten: the user must act. */
  manual: boolean;
  /** Worth knowing, nothing to do, nothing rewritten. */
  note?: true;
}
