import type { Diagnostic } from './diagnostic.js';
import type { SourceFile } from './span.js';
import type { ContextDef, HostDef, ServerXml, TomcatUsers } from './server.js';
import type { PropertiesFile } from './properties.js';
import type { SetenvFile } from './setenv.js';
import type { WebXml } from './webxml.js';
import type { FileScope } from './files.js';

/** How a context was found, as Tomcat's HostConfig finds them. */
export type ContextSource = 'server-xml' | 'context-file' | 'app-dir';

/** A web application of a host. */
export interface LoadedContext {
  /** Context path: '' for ROOT, otherwise starting with '/'. */
  path: string;
  /** The version after `##`, or '' when none. */
  version: string;
  /** Tomcat's base name (`ROOT`, `foo#bar##2`). */
  name: string;
  /** Absolute directory of the application (may not exist). */
  docBase: string;
  source: ContextSource;
  /** The `<Context>` element that defined it (server.xml, conf/<Engine>/<Host>/x.xml or META-INF/context.xml). */
  contextDef: ContextDef | null;
  /** `WEB-INF/web.xml`; null when the app has none. */
  webXml: WebXml | null;
  /** `WEB-INF/tomcat-web.xml`, which Tomcat merges between web.xml and the host defaults; absent or null when none. */
  tomcatWebXml?: WebXml | null;
  /** `WEB-INF/classes/logging.properties`, the application's own JULI configuration; absent or null when none. */
  loggingProperties?: PropertiesFile | null;
}

export interface LoadedHost {
  engineName: string;
  name: string;
  aliases: string[];
  /** Absolute appBase. */
  appBase: string;
  def: HostDef | null;
  /** `conf/<Engine>/<Host>/web.xml.default`. */
  webXmlDefault: WebXml | null;
  /** `conf/<Engine>/<Host>/context.xml.default`, which every context of the host inherits; absent or null when none. */
  contextDefault?: ContextDef | null;
  contexts: LoadedContext[];
}

/** Everything read from one CATALINA_BASE. */
export interface CatalinaBase {
  base: string;
  home: string;
  serverXml: ServerXml | null;
  /** `conf/web.xml` of the base (Tomcat 10.1 never reads the home's); null when the base has none. */
  globalWebXml: WebXml | null;
  users: TomcatUsers | null;
  /** `conf/context.xml`, which every context of every host inherits; absent or null when none. */
  contextXml?: ContextDef | null;
  /** `conf/catalina.properties` with positions (its entries are also in `properties`); absent or null when none. */
  catalinaProperties?: PropertiesFile | null;
  /** `conf/logging.properties` (JULI's configuration); absent or null when none. */
  loggingProperties?: PropertiesFile | null;
  /** `bin/setenv.sh` of the base, else of the home (catalina.sh sources the first it finds); absent or null when none. */
  setenv?: SetenvFile | null;
  engineName: string;
  defaultHost: string;
  hosts: LoadedHost[];
  /** Properties used for `${...}` in every descriptor (catalina.base, catalina.home, java.io.tmpdir, separators, the base's conf/catalina.properties). */
  properties: Record<string, string>;
  /** Every file read, by absolute path. */
  files: Map<string, SourceFile>;
  diagnostics: Diagnostic[];
  /** Where and how much the readers of this base may read (src/parser/files.ts); absent: the base and home, default caps. */
  scope?: FileScope;
}
