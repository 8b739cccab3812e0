export { decodeXml, encodeSource, referenceUnencodable } from './decode.js';
export { LineIndex } from './lines.js';
export { parseXmlTree, elementText, type XmlAttribute, type XmlDocument, type XmlElement } from './xml.js';
export { parseWebXml, type WebXmlOptions } from './webxml.js';
export { parseServerXml, parseContextXml, parseTomcatUsers } from './server.js';
export { resolveProperties, parseJavaProperties } from './properties.js';
export { parsePropertiesFile, propertyOf } from './properties-file.js';
export { parseSetenv, jvmProperty } from './setenv.js';
export {
  parseEnvironmentFile,
  parseSystemdUnit,
  readStartup,
  type StartupConfig,
  type StartupOptions,
} from './startup.js';
export { parseContextName, contextBaseName, isContextPathValid } from './context-name.js';
export { loadBase, loadAddedHost, ParseCache, type BasePartition } from './load.js';
export { parseChainJson } from './json-chain.js';
