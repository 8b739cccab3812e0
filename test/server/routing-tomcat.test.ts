/**
 * Tomcat 10.1's answers on the request path (issue 32, item 5), observed on Tomcat 10.1.60 with a ROOT and
 * an /api application: `//api/index.json` and `///api/index.json` are /api's (CoyoteAdapter.normalize
 * merges the slashes before the mapper picks the context), where serve sent them to ROOT (404); an encoded
 * slash is a 400 whose report says `Invalid URI: [The encoded slash character is not allowed]`, and the
 * connection is closed after it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContainer, type Container } from '../../src/server/container.js';
import { makeBase, serverXml } from './harness.js';
import { ask } from './http.js';

let base: string;
let c: Container;

beforeAll(async () => {
  base = makeBase(serverXml());
  mkdirSync(join(base, 'webapps', 'api'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'api', 'index.json'), '{"ok":true}\n');
  c = await startContainer({ base, port: 0 });
});

afterAll(async () => {
  await c?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("serve maps and refuses request paths as Tomcat 10.1's connector and mapper do", () => {
  it.each(['//api/index.json', '///api/index.json', '/api//index.json', '//api//index.json'])(
    '%s goes to the /api context with merged slashes (200 from Tomcat 10.1.60)',
    async (target) => {
      const r = await ask(c.port, target);
      expect(r.status).toBe(200);
      expect(r.text).toBe('{"ok":true}\n');
    },
  );

  it.each(['/api%2Findex.json', '/api/%2F/index.json', '/api%2findex.json'])(
    "%s is a 400 with Tomcat's Message line, and the connection is closed",
    async (target) => {
      const r = await ask(c.port, target);
      expect(r.status).toBe(400);
      expect(r.headers.connection).toBe('close');
      // Tomcat 10.1.60's body byte for byte, but for the server line.
      expect(r.text).toBe(
        '<!doctype html><html lang="en"><head><title>HTTP Status 400 – Bad Request</title><style type="text/css">body {font-family:Tahoma,Arial,sans-serif;} h1, h2, h3, b {color:white;background-color:#525D76;} h1 {font-size:22px;} h2 {font-size:16px;} h3 {font-size:14px;} p {font-size:12px;} a {color:black;} .line {height:1px;background-color:#525D76;border:none;}</style></head><body><h1>HTTP Status 400 – Bad Request</h1><hr class="line" /><p><b>Type</b> Status Report</p><p><b>Message</b> Invalid URI: [The encoded slash character is not allowed]</p><p><b>Description</b> The server cannot or will not process the request due to something that is perceived to be a client error (e.g., malformed request syntax, invalid request message framing, or deceptive request routing).</p><hr class="line" /><h3>tollgate</h3></body></html>',
      );
    },
  );
});
