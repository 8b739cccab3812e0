/**
 * The parts of `tollgate serve` that do not depend on filter chains: the
 * static default servlet, users and realms, the virtual host registry, the
 * host manager's text interface and persist.
 */
export {
  createStaticHandler,
  DEFAULT_WELCOME_FILES,
  LAST_MODIFIED_ATTRIBUTE,
  type StaticHandler,
  type StaticOptions,
} from './static.js';
export { createMimeLookup, type MimeLookup, type MimeMappings } from './mime.js';
export { TOMCAT_MIME_TYPES } from '../protocol/mime-table.js';
export {
  evaluateRange,
  formatHttpDate,
  matchEntityTags,
  parseHttpDate,
  weakETag,
  type ByteRange,
  type RangeVerdict,
} from './http-conditions.js';
export {
  constantTimeEquals,
  createCredentialHandler,
  type CredentialHandler,
  type CredentialHandlerSettings,
  type MessageDigestSettings,
  type NestedSettings,
  type SecretKeySettings,
} from './credentials.js';
export {
  realmFromConfig,
  UserRealm,
  type LockoutSettings,
  type Principal,
  type RealmOptions,
  type UserRecord,
} from './realm.js';
export {
  HostRegistry,
  type AddHostInput,
  type AddPolicy,
  type HostEvent,
  type HostFailure,
  type HostListener,
  type HostRegistryOptions,
  type HostResult,
  type HostSettings,
  type HostState,
  type VirtualHost,
} from './hosts.js';
export {
  basicCredentials,
  createHostManagerHandler,
  type Authenticator,
  type HostManagerHandler,
  type HostManagerOptions,
  type Persister,
} from './host-manager.js';
export {
  createServerXmlPersister,
  durableSteps,
  freeBackupName,
  renderHost,
  rewriteHosts,
  storeConfigEnabled,
  type PersistSteps,
  type ServerXmlPersisterOptions,
} from './persist.js';
