/**
 * A small container assembled from the src/server pieces, the way `tollgate
 * serve` wires them: hosts from server.xml, each host's ROOT application
 * served by the static servlet, the host manager on the default host.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBase } from '../../src/parser/index.js';
import { createHostManagerHandler, type HostManagerOptions } from '../../src/server/host-manager.js';
import { HostRegistry } from '../../src/server/hosts.js';
import { createServerXmlPersister, storeConfigEnabled } from '../../src/server/persist.js';
import { realmFromConfig } from '../../src/server/realm.js';
import { createStaticHandler, type StaticHandler } from '../../src/server/static.js';
import { listen, type Running } from './http.js';

export const STORE_CONFIG_LISTENER =
  '<Listener className="org.apache.catalina.storeconfig.StoreConfigLifecycleListener"/>';

export function serverXml(opts: { storeConfig?: boolean; realm?: string; extraHosts?: string } = {}): string {
  const realm =
    opts.realm ??
    `<Realm className="org.apache.catalina.realm.LockOutRealm">
        <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      </Realm>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- The test server: comments like this one must survive a persist. -->
<Server port="-1" shutdown="SHUTDOWN">
  <Listener className="org.apache.catalina.startup.VersionLoggerListener" />
  ${opts.storeConfig ? STORE_CONFIG_LISTENER : '<!-- no StoreConfig here -->'}
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase"
              factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml" />
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1" connectionTimeout="20000"/>
    <Engine name="Catalina" defaultHost="localhost">
      <!-- Use the LockOutRealm to prevent attempts to guess user passwords -->
      ${realm}

      <Host name="localhost"  appBase="webapps"
            unpackWARs="true" autoDeploy="true">
        <!-- the access log of localhost -->
        <Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs"
               prefix="localhost_access_log" suffix=".txt"
               pattern="%h %l %u %t &quot;%r&quot; %s %b" />
      </Host>
${opts.extraHosts ?? ''}    </Engine>
  </Service>
</Server>
`;
}

export const USERS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">
  <user username="admin" password="s3cret" roles="admin-script"/>
  <user username="gui" password="s3cret" roles="admin-gui"/>
  <user username="both" password="s3cret" roles="admin-gui,admin-script"/>
</tomcat-users>
`;

/** A fresh CATALINA_BASE in a temporary directory. */
export function makeBase(xml: string, users = USERS_XML): string {
  const base = mkdtempSync(join(tmpdir(), 'tg-base-'));
  mkdirSync(join(base, 'conf'), { recursive: true });
  writeFileSync(join(base, 'conf', 'server.xml'), xml);
  writeFileSync(join(base, 'conf', 'tomcat-users.xml'), users);
  mkdirSync(join(base, 'webapps', 'ROOT'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'ROOT', 'index.html'), 'localhost root\n');
  return base;
}

export interface Container extends Running {
  base: string;
  registry: HostRegistry;
  /** Static handlers of the hosts currently deployed. */
  deployed: Map<string, StaticHandler>;
  dispose(): Promise<void>;
}

/** Starts the container on 127.0.0.1:0 for the base. */
export async function startContainer(
  base: string,
  options: Partial<HostManagerOptions> & { clock?: () => number } = {},
): Promise<Container> {
  const loaded = loadBase({ base });
  const registry = HostRegistry.fromBase(loaded);
  const { realm } = realmFromConfig(loaded.users, loaded.serverXml?.services[0]?.engine?.realms ?? [], {
    clock: options.clock,
  });
  const deployed = new Map<string, StaticHandler>();
  const deploy = (name: string, appBase: string): void => {
    deployed.set(name, createStaticHandler({ docBase: join(appBase, 'ROOT') }));
  };
  for (const h of registry.list()) if (h.state === 'started') deploy(h.name, h.appBasePath);
  registry.subscribe((e) => {
    if (e.type === 'added' || e.type === 'started') deploy(e.host.name, e.host.appBasePath);
    else deployed.delete(e.host.name);
  });
  const persister = storeConfigEnabled(loaded.serverXml)
    ? createServerXmlPersister({ registry, file: join(base, 'conf', 'server.xml') })
    : null;
  const manager = createHostManagerHandler({ registry, realm, persister, ...options });
  const running = await listen((req: IncomingMessage, res: ServerResponse) => {
    const host = registry.resolve(req.headers.host);
    if (host === null) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const url = req.url ?? '/';
    if (
      host.name === registry.defaultHost &&
      (url === '/host-manager' || url.startsWith('/host-manager/') || url.startsWith('/host-manager?'))
    ) {
      manager(req, res);
      return;
    }
    const serve = deployed.get(host.name);
    if (serve === undefined) {
      res.statusCode = 404;
      res.end();
      return;
    }
    void serve(req, res);
  });
  return {
    ...running,
    base,
    registry,
    deployed,
    async dispose() {
      await running.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
