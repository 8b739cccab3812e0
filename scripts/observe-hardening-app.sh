#!/usr/bin/env bash
# What Tomcat 10.1 does with the web.xml settings the hardening rules judge (docs/rules/default-servlet-*.md,
# http-method-uncovered.md, manager-without-confidential-transport.md, hsts-disabled.md, manager-sample-error-pages.md cite this output).
# Runs Debian's tomcat10 on a temporary CATALINA_BASE bound to 127.0.0.1 (HTTP and HTTPS on free ports),
# asks it a few requests with curl, prints what came back, and stops it.
set -euo pipefail
HOME_DIR=${CATALINA_HOME:-/usr/share/tomcat10}
BASE=$(mktemp -d /tmp/tollgate-observe-XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
HTTP=$(free_port); HTTPS=$(free_port)
PID=
stop() { if [ -n "$PID" ]; then kill -- -"$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi; rm -rf "$BASE"; }
trap stop EXIT
mkdir -p "$BASE"/{conf,logs,temp,work,webapps/ROOT/files,webapps/secret/WEB-INF,webapps/secret/admin,conf/Catalina/localhost}
cp /etc/tomcat10/web.xml /etc/tomcat10/logging.properties /etc/tomcat10/catalina.properties /etc/tomcat10/context.xml "$BASE/conf/" 2>/dev/null || cp "$HOME_DIR"/conf/{web.xml,logging.properties,catalina.properties,context.xml} "$BASE/conf/"
keytool -genkeypair -alias t -keyalg RSA -keysize 2048 -dname CN=localhost -validity 2 -storetype PKCS12 -keystore "$BASE/conf/ks.p12" -storepass changeit -keypass changeit >/dev/null 2>&1
cat > "$BASE/conf/server.xml" <<XML
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="$HTTP" address="127.0.0.1" protocol="HTTP/1.1" redirectPort="$HTTPS"/>
    <Connector port="$HTTPS" address="127.0.0.1" protocol="HTTP/1.1" SSLEnabled="true" scheme="https" secure="true">
      <SSLHostConfig><Certificate certificateKeystoreFile="conf/ks.p12" certificateKeystorePassword="changeit"/></SSLHostConfig>
    </Connector>
    <Engine name="Catalina" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.MemoryRealm"/>
      <Host name="localhost" appBase="webapps" autoDeploy="false"/>
    </Engine>
  </Service>
</Server>
XML
printf '<tomcat-users><user username="u" password="p" roles="x"/></tomcat-users>\n' > "$BASE/conf/tomcat-users.xml"
# The global DefaultServlet made writable and listing; the global header filter (HSTS on) mapped to /*.
python3 - "$BASE/conf/web.xml" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
s = s.replace('<param-name>listings</param-name>\n            <param-value>false</param-value>',
              '<param-name>listings</param-name>\n            <param-value>true</param-value>\n        </init-param>\n        <init-param>\n            <param-name>readonly</param-name>\n            <param-value>false</param-value>', 1)
s = s.replace('</web-app>', '''  <filter><filter-name>globalHeaders</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class></filter>
  <filter-mapping><filter-name>globalHeaders</filter-name><url-pattern>/*</url-pattern></filter-mapping>
</web-app>''')
open(p, 'w').write(s)
PY
echo hello > "$BASE/webapps/ROOT/files/a.txt"
echo secret > "$BASE/webapps/secret/admin/page.html"
cat > "$BASE/webapps/secret/WEB-INF/web.xml" <<'XML'
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter><filter-name>appHeaders</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class>
    <init-param><param-name>hstsEnabled</param-name><param-value>false</param-value></init-param></filter>
  <filter-mapping><filter-name>appHeaders</filter-name><url-pattern>/*</url-pattern></filter-mapping>
  <security-constraint>
    <web-resource-collection><web-resource-name>admin</web-resource-name><url-pattern>/admin/*</url-pattern><http-method>GET</http-method></web-resource-collection>
    <auth-constraint><role-name>x</role-name></auth-constraint>
  </security-constraint>
  <login-config><auth-method>BASIC</auth-method></login-config>
  <security-role><role-name>x</role-name></security-role>
</web-app>
XML
printf '<Context docBase="/usr/share/tomcat10-admin/manager" privileged="true"/>\n' > "$BASE/conf/Catalina/localhost/manager.xml"
( set -m; CATALINA_HOME="$HOME_DIR" CATALINA_BASE="$BASE" exec "$HOME_DIR/bin/catalina.sh" run >"$BASE/logs/out.txt" 2>&1 ) &
PID=$!
for _ in $(seq 1 120); do curl -s -o /dev/null "http://127.0.0.1:$HTTP/" && break; sleep 0.5; done
show() { echo "\$ $*"; "$@" 2>&1 | tr -d '\r' | grep -iE '^(HTTP/|strict-transport|x-frame|www-authenticate|content-length)|Directory Listing|a\.txt|secret|s3cret' | head -8; echo; }
show curl -si "http://127.0.0.1:$HTTP/files/"
show curl -si -X PUT --data-binary 'written by PUT' "http://127.0.0.1:$HTTP/files/put.txt"
show curl -si "http://127.0.0.1:$HTTP/files/put.txt"
show curl -si "http://127.0.0.1:$HTTP/secret/admin/page.html"
show curl -si -I "http://127.0.0.1:$HTTP/secret/admin/page.html"
show curl -si -X POST "http://127.0.0.1:$HTTP/secret/admin/page.html"
show curl -si "http://127.0.0.1:$HTTP/manager/html"
show curl -ksi "https://127.0.0.1:$HTTPS/secret/"
show curl -ksi "https://127.0.0.1:$HTTPS/manager/"
echo "--- Tomcat's log lines about the constraints"
grep -h "uncovered" "$BASE"/logs/*.log "$BASE/logs/out.txt" 2>/dev/null | sed 's/^.*\(For security\)/\1/' | sort -u
