/** tollgate's library API: parse a CATALINA_BASE, merge its chains, ask which filters run. */
export * from './model/index.js';
export {
  loadBase,
  parseWebXml,
  parseServerXml,
  parseTomcatUsers,
  parseContextXml,
  parseContextName,
  decodeXml,
} from './parser/index.js';
export * from './chain/index.js';
