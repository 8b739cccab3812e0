/**
 * Reading a form body for parameter parsing, with Tomcat's outcomes: a
 * declared length over maxPostSize is refused without reading, a chunked body
 * is read until it passes the limit, a client that goes away is a
 * CLIENT_DISCONNECT.
 */
import type { IncomingMessage } from 'node:http';
import type { ParameterFailReason } from './parameters.js';

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; reason: ParameterFailReason };

/** Reads the whole request body, or reports why it was not used. */
export function readBody(req: IncomingMessage, maxPostSize: number): Promise<BodyResult> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && maxPostSize >= 0 && Number(declared) > maxPostSize) {
    return Promise.resolve({ ok: false, reason: 'POST_TOO_LARGE' });
  }
  return new Promise<BodyResult>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (r: BodyResult): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (maxPostSize >= 0 && size > maxPostSize) {
        finish({ ok: false, reason: 'POST_TOO_LARGE' });
        // Drain the rest so the connection can be reused, without keeping it.
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void =>
      finish({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    const onGone = (): void => finish({ ok: false, reason: 'CLIENT_DISCONNECT' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}
