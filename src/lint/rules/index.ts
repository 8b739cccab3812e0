import type { Rule } from '../types.js';
import { rule as remoteIpValveTrustsAny } from './remote-ip-valve-trusts-any.js';
import { rule as stuckThreadDetectionDisabled } from './stuck-thread-detection-disabled.js';
import { rule as appLoggingMissing } from './app-logging-missing.js';
import { rule as securityManagerOff } from './security-manager-off.js';
import { rule as jmxRemoteUnprotected } from './jmx-remote-unprotected.js';
import { rule as umaskTooOpen } from './umask-too-open.js';
import { rule as fileModeTooOpen } from './file-mode-too-open.js';
import { rule as fileOwnerUnexpected } from './file-owner-unexpected.js';
import { rule as realmInsecure } from './realm-insecure.js';
import { rule as managerDefaultPath } from './manager-default-path.js';
import { rule as keystoreDefaultPassword } from './keystore-default-password.js';
import { rule as managerMaxSessions } from './manager-max-sessions.js';
import { rule as managerSampleErrorPages } from './manager-sample-error-pages.js';
import { rule as managerNotClientCert } from './manager-not-client-cert.js';
import { rule as ldapRealmCleartext } from './ldap-realm-cleartext.js';
import { rule as managerRealmNotLdap } from './manager-realm-not-ldap.js';
import { rule as sampleAppsDeployed } from './sample-apps-deployed.js';
import { rule as serverInfoDefault } from './server-info-default.js';
import { rule as addressRegexBareDot } from './address-regex-bare-dot.js';
import { rule as addressRegexMatchesNothing } from './address-regex-matches-nothing.js';
import { rule as accessLogMissing } from './access-log-missing.js';
import { rule as accessLogPattern } from './access-log-pattern.js';
import { rule as accessLogProxyAddress } from './access-log-proxy-address.js';
import { rule as ajpNoSecret } from './ajp-no-secret.js';
import { rule as connectorAllAddresses } from './connector-all-addresses.js';
import { rule as connectorAllowTrace } from './connector-allow-trace.js';
import { rule as connectorDiscardFacadesOff } from './connector-discard-facades-off.js';
import { rule as connectorEnableLookups } from './connector-enable-lookups.js';
import { rule as connectorGetWriterEncoding } from './connector-get-writer-encoding.js';
import { rule as connectorLimits } from './connector-limits.js';
import { rule as connectorNotTls } from './connector-not-tls.js';
import { rule as connectorPathDelimiters } from './connector-path-delimiters.js';
import { rule as connectorSecureWithoutTls } from './connector-secure-without-tls.js';
import { rule as connectorServerHeader } from './connector-server-header.js';
import { rule as connectorWeakCiphers } from './connector-weak-ciphers.js';
import { rule as connectorXPoweredBy } from './connector-x-powered-by.js';
import { rule as contextAllowLinking } from './context-allow-linking.js';
import { rule as contextCrossContext } from './context-cross-context.js';
import { rule as contextLogEffectiveWebXml } from './context-log-effective-web-xml.js';
import { rule as contextPrivileged } from './context-privileged.js';
import { rule as contextReloadable } from './context-reloadable.js';
import { rule as cookieSameSiteNone } from './cookie-same-site-none.js';
import { rule as errorReportServerInfo } from './error-report-server-info.js';
import { rule as hostAutoDeploy } from './host-auto-deploy.js';
import { rule as hostDeployOnStartup } from './host-deploy-on-startup.js';
import { rule as hostDeployXml } from './host-deploy-xml.js';
import { rule as lockoutRealmMissing } from './lockout-realm-missing.js';
import { rule as lockoutRealmWeak } from './lockout-realm-weak.js';
import { rule as loggingNoFileHandler } from './logging-no-file-handler.js';
import { rule as managerUnrestricted } from './manager-unrestricted.js';
import { rule as memoryLeakListenerMissing } from './memory-leak-listener-missing.js';
import { rule as packageAccessWeakened } from './package-access-weakened.js';
import { rule as securityListenerMissing } from './security-listener-missing.js';
import { rule as sessionCookieHttpOnly } from './session-cookie-http-only.js';
import { rule as shutdownPortEnabled } from './shutdown-port-enabled.js';
import { rule as strictServletComplianceOff } from './strict-servlet-compliance-off.js';
import { rule as systemPropertyRemoved } from './system-property-removed.js';
import { rule as baseUnreadable } from './base-unreadable.js';
import { rule as cidrHostBits } from './cidr-host-bits.js';
import { rule as cleartextKeystorePassword } from './cleartext-keystore-password.js';
import { rule as connectorLegacyTls } from './connector-legacy-tls.js';
import { rule as corsAllowedHeadersWildcard } from './cors-allowed-headers-wildcard.js';
import { rule as corsAnyOrigin } from './cors-any-origin.js';
import { rule as corsCredentialsWithAnyOrigin } from './cors-credentials-with-any-origin.js';
import { rule as corsExposesCorsHeaders } from './cors-exposes-cors-headers.js';
import { rule as corsHttpOrigin } from './cors-http-origin.js';
import { rule as corsNoAllowedOrigins } from './cors-no-allowed-origins.js';
import { rule as corsPreflightMaxageNegative } from './cors-preflight-maxage-negative.js';
import { rule as csrfInsecureRandom } from './csrf-insecure-random.js';
import { rule as csrfNotCoveringAll } from './csrf-not-covering-all.js';
import { rule as doctypeMixedIds } from './doctype-mixed-ids.js';
import { rule as duplicateFilterName } from './duplicate-filter-name.js';
import { rule as duplicateServletMapping } from './duplicate-servlet-mapping.js';
import { rule as expiresNegativeDuration } from './expires-negative-duration.js';
import { rule as expiresRuleNeverApplies } from './expires-rule-never-applies.js';
import { rule as fileTooLarge } from './file-too-large.js';
import { rule as fileUnreadable } from './file-unreadable.js';
import { rule as filterDeniesEverything } from './filter-denies-everything.js';
import { rule as filterMappingUndefinedFilter } from './filter-mapping-undefined-filter.js';
import { rule as filterNeverMapped } from './filter-never-mapped.js';
import { rule as filterNotInTarget } from './filter-not-in-target.js';
import { rule as filterParamBooleanSpelling } from './filter-param-boolean-spelling.js';
import { rule as filterParamCidr } from './filter-param-cidr.js';
import { rule as filterParamDuplicate } from './filter-param-duplicate.js';
import { rule as filterParamInvalid } from './filter-param-invalid.js';
import { rule as filterParamNoEffect } from './filter-param-no-effect.js';
import { rule as filterParamNotInTarget } from './filter-param-not-in-target.js';
import { rule as filterParamRegex } from './filter-param-regex.js';
import { rule as filterParamUnknown } from './filter-param-unknown.js';
import { rule as frameOptionsAllowFrom } from './frame-options-allow-from.js';
import { rule as globalFilterRedefined } from './global-filter-redefined.js';
import { rule as headerFilterOverridden } from './header-filter-overridden.js';
import { rule as hostManagerNoScriptUser } from './host-manager-no-script-user.js';
import { rule as hstsDisabled } from './hsts-disabled.js';
import { rule as hstsMaxAgeZero } from './hsts-max-age-zero.js';
import { rule as invalidDispatcher } from './invalid-dispatcher.js';
import { rule as invalidUrlPattern } from './invalid-url-pattern.js';
import { rule as jsonChainInvalid } from './json-chain-invalid.js';
import { rule as jsonMalformed } from './json-malformed.js';
import { rule as mimeMappingCaseConflict } from './mime-mapping-case-conflict.js';
import { rule as persistNeedsStoreconfig } from './persist-needs-storeconfig.js';
import { rule as regexRedos } from './regex-redos.js';
import { rule as remoteAddrIpv6Form } from './remote-addr-ipv6-form.js';
import { rule as remoteHostWithoutLookups } from './remote-host-without-lookups.js';
import { rule as remoteIpAfterAddressFilter } from './remote-ip-after-address-filter.js';
import { rule as requestDumperEnabled } from './request-dumper-enabled.js';
import { rule as restCsrfNoFetchPath } from './rest-csrf-no-fetch-path.js';
import { rule as restCsrfNotCovering } from './rest-csrf-not-covering.js';
import { rule as securityHeaderDisabled } from './security-header-disabled.js';
import { rule as staticContentTypeMissing } from './static-content-type-missing.js';
import { rule as serverClassNotFound } from './server-class-not-found.js';
import { rule as executorThreadsInvalid } from './executor-threads-invalid.js';
import { rule as attributeUnknown } from './attribute-unknown.js';
import { rule as attributeInvalidValue } from './attribute-invalid-value.js';
import { rule as contextClassNotFound } from './context-class-not-found.js';
import { rule as connectorProtocolNotFound } from './connector-protocol-not-found.js';
import { rule as connectorTlsWithoutHostConfig } from './connector-tls-without-host-config.js';
import { rule as realmMissingAttribute } from './realm-missing-attribute.js';
import { rule as serverMissingAttribute } from './server-missing-attribute.js';
import { rule as serverNoHost } from './server-no-host.js';
import { rule as serverUnresolvedProperty } from './server-unresolved-property.js';
import { rule as serverXmlMissing } from './server-xml-missing.js';
import { rule as servletMappingUndefinedServlet } from './servlet-mapping-undefined-servlet.js';
import { rule as setCharacterEncodingNoEffect } from './set-character-encoding-no-effect.js';
import { rule as setCharacterEncodingOrder } from './set-character-encoding-order.js';
import { rule as shutdownPortDefault } from './shutdown-port-default.js';
import { rule as unknownFilterClass } from './unknown-filter-class.js';
import { rule as unusedSuppression } from './unused-suppression.js';
import { rule as unusualUrlPattern } from './unusual-url-pattern.js';
import { rule as userPlaintextPassword } from './user-plaintext-password.js';
import { rule as usersMissingAttribute } from './users-missing-attribute.js';
import { rule as warNotRead } from './war-not-read.js';
import { rule as webxmlInvalidValue } from './webxml-invalid-value.js';
import { rule as webxmlMissingElement } from './webxml-missing-element.js';
import { rule as webxmlVersionUnsupported } from './webxml-version-unsupported.js';
import { rule as xmlEncoding } from './xml-encoding.js';
import { rule as xmlDeepNesting } from './xml-deep-nesting.js';
import { rule as xmlEntityExpansion } from './xml-entity-expansion.js';
import { rule as xmlExternalEntity } from './xml-external-entity.js';
import { rule as xmlExternalDtd } from './xml-external-dtd.js';
import { rule as remoteAddrDenyBehindProxy } from './remote-addr-deny-behind-proxy.js';
import { rule as rateLimitSpoofableClient } from './rate-limit-spoofable-client.js';
import { rule as xmlMalformed } from './xml-malformed.js';
import { rule as xmlUnknownNamespace } from './xml-unknown-namespace.js';
import { rule as xmlWrongRoot } from './xml-wrong-root.js';
import { rule as defaultServletDebug } from './default-servlet-debug.js';
import { rule as defaultServletListings } from './default-servlet-listings.js';
import { rule as defaultServletWritable } from './default-servlet-writable.js';
import { rule as errorPageThrowableMissing } from './error-page-throwable-missing.js';
import { rule as hstsMissing } from './hsts-missing.js';
import { rule as httpMethodUncovered } from './http-method-uncovered.js';
import { rule as jspDevelopmentMode } from './jsp-development-mode.js';
import { rule as loginWithoutConfidentialTransport } from './login-without-confidential-transport.js';
import { rule as managerSessionTimeout } from './manager-session-timeout.js';
import { rule as managerWithoutConfidentialTransport } from './manager-without-confidential-transport.js';
import { rule as sessionCookieNotSecure } from './session-cookie-not-secure.js';
import { rule as sessionNeverExpires } from './session-never-expires.js';
import { rule as sessionTrackingUrl } from './session-tracking-url.js';
import { rule as transportNotConfidential } from './transport-not-confidential.js';
import { rule as userDefaultCredentials } from './user-default-credentials.js';
import { rule as userManagerGuiAndScript } from './user-manager-gui-and-script.js';
import { rule as userRoleUnused } from './user-role-unused.js';

/** Every rule, by id. A diagnostic id that reaches users must be registered here (a test checks it). */
export const RULES: readonly Rule[] = [
  addressRegexBareDot,
  addressRegexMatchesNothing,
  baseUnreadable,
  cidrHostBits,
  cleartextKeystorePassword,
  connectorLegacyTls,
  corsAllowedHeadersWildcard,
  corsAnyOrigin,
  corsCredentialsWithAnyOrigin,
  corsExposesCorsHeaders,
  corsHttpOrigin,
  corsNoAllowedOrigins,
  corsPreflightMaxageNegative,
  csrfInsecureRandom,
  csrfNotCoveringAll,
  doctypeMixedIds,
  duplicateFilterName,
  duplicateServletMapping,
  expiresNegativeDuration,
  expiresRuleNeverApplies,
  fileTooLarge,
  fileUnreadable,
  filterDeniesEverything,
  filterMappingUndefinedFilter,
  filterNeverMapped,
  filterNotInTarget,
  filterParamBooleanSpelling,
  filterParamCidr,
  filterParamDuplicate,
  filterParamInvalid,
  filterParamNoEffect,
  filterParamNotInTarget,
  filterParamRegex,
  filterParamUnknown,
  frameOptionsAllowFrom,
  globalFilterRedefined,
  headerFilterOverridden,
  hostManagerNoScriptUser,
  hstsDisabled,
  hstsMaxAgeZero,
  invalidDispatcher,
  invalidUrlPattern,
  jsonChainInvalid,
  jsonMalformed,
  mimeMappingCaseConflict,
  persistNeedsStoreconfig,
  regexRedos,
  remoteAddrIpv6Form,
  remoteHostWithoutLookups,
  remoteIpAfterAddressFilter,
  requestDumperEnabled,
  restCsrfNoFetchPath,
  restCsrfNotCovering,
  securityHeaderDisabled,
  staticContentTypeMissing,
  serverClassNotFound,
  executorThreadsInvalid,
  attributeUnknown,
  attributeInvalidValue,
  contextClassNotFound,
  connectorProtocolNotFound,
  connectorTlsWithoutHostConfig,
  realmMissingAttribute,
  serverMissingAttribute,
  serverNoHost,
  serverUnresolvedProperty,
  serverXmlMissing,
  servletMappingUndefinedServlet,
  setCharacterEncodingNoEffect,
  setCharacterEncodingOrder,
  shutdownPortDefault,
  unknownFilterClass,
  unusedSuppression,
  unusualUrlPattern,
  userPlaintextPassword,
  usersMissingAttribute,
  warNotRead,
  webxmlInvalidValue,
  webxmlMissingElement,
  webxmlVersionUnsupported,
  xmlEncoding,
  xmlDeepNesting,
  xmlEntityExpansion,
  xmlExternalEntity,
  xmlExternalDtd,
  remoteAddrDenyBehindProxy,
  rateLimitSpoofableClient,
  xmlMalformed,
  xmlUnknownNamespace,
  xmlWrongRoot,
  defaultServletDebug,
  defaultServletListings,
  defaultServletWritable,
  errorPageThrowableMissing,
  hstsMissing,
  httpMethodUncovered,
  jspDevelopmentMode,
  loginWithoutConfidentialTransport,
  managerSessionTimeout,
  managerWithoutConfidentialTransport,
  sessionCookieNotSecure,
  sessionNeverExpires,
  sessionTrackingUrl,
  transportNotConfidential,
  userDefaultCredentials,
  userManagerGuiAndScript,
  userRoleUnused,
  accessLogMissing,
  accessLogPattern,
  accessLogProxyAddress,
  ajpNoSecret,
  connectorAllAddresses,
  connectorAllowTrace,
  connectorDiscardFacadesOff,
  connectorEnableLookups,
  connectorGetWriterEncoding,
  connectorLimits,
  connectorNotTls,
  connectorPathDelimiters,
  connectorSecureWithoutTls,
  connectorServerHeader,
  connectorWeakCiphers,
  connectorXPoweredBy,
  contextAllowLinking,
  contextCrossContext,
  contextLogEffectiveWebXml,
  contextPrivileged,
  contextReloadable,
  cookieSameSiteNone,
  errorReportServerInfo,
  hostAutoDeploy,
  hostDeployOnStartup,
  hostDeployXml,
  lockoutRealmMissing,
  lockoutRealmWeak,
  loggingNoFileHandler,
  managerUnrestricted,
  memoryLeakListenerMissing,
  packageAccessWeakened,
  securityListenerMissing,
  sessionCookieHttpOnly,
  shutdownPortEnabled,
  strictServletComplianceOff,
  systemPropertyRemoved,
  remoteIpValveTrustsAny,
  stuckThreadDetectionDisabled,
  appLoggingMissing,
  securityManagerOff,
  jmxRemoteUnprotected,
  umaskTooOpen,
  fileModeTooOpen,
  fileOwnerUnexpected,
  realmInsecure,
  managerDefaultPath,
  keystoreDefaultPassword,
  managerMaxSessions,
  managerSampleErrorPages,
  managerNotClientCert,
  ldapRealmCleartext,
  managerRealmNotLdap,
  sampleAppsDeployed,
  serverInfoDefault,
];

const byId = new Map(RULES.map((r) => [r.meta.id, r]));

/** The rule with this id, if any. */
export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}
