import type { Located, Span } from './span.js';

/** One `key=value` entry of a Java .properties file, both parts unescaped, with their positions. */
export interface PropertyEntry {
  key: Located<string>;
  value: Located<string>;
  /** The whole logical line (continuations included). */
  span: Span;
}

/** A positioned Java .properties file (conf/catalina.properties, conf/logging.properties). */
export interface PropertiesFile {
  file: string;
  /** Every entry in file order; Java keeps the last of a repeated key. */
  entries: PropertyEntry[];
}
