import { describe, expect, it } from 'vitest';
import { TOMCAT_MIME_TYPES } from '../../src/protocol/mime-table.js';
import { createContextRuntime } from '../../src/runtime/context.js';
import { createMimeLookup, mimeMappingsAgainstDefaults, tomcatMimeLookup } from '../../src/runtime/mime.js';

describe('the runtime MIME lookup (ServletContext.getMimeType)', () => {
  it("answers from Tomcat's stock table by the text after the last dot, in any case", () => {
    expect(tomcatMimeLookup('a.css')).toBe('text/css');
    expect(tomcatMimeLookup('/dir.v2/LOGO.PNG')).toBe('image/png');
    expect(tomcatMimeLookup('noext')).toBeNull();
    expect(tomcatMimeLookup('trailing.')).toBeNull();
    expect(tomcatMimeLookup('a.html?x=1')).toBeNull();
  });

  it("lays the application's mappings over the defaults, lower-casing extensions as StandardContext.addMimeMapping", () => {
    const m = createMimeLookup({ UP: 'text/x-up', css: 'text/x-css' });
    expect(m('a.up')).toBe('text/x-up');
    expect(m('a.css')).toBe('text/x-css');
    expect(m('a.png')).toBe('image/png');
    expect(createMimeLookup([['up', 'text/x-up']], { defaults: false })('a.png')).toBeNull();
    expect(createMimeLookup(new Map([['up', 'a/b']]))('x.UP')).toBe('a/b');
  });

  it('a context gets the defaults without any option, and its own mappings with mimeTypes', () => {
    expect(createContextRuntime().settings.mimeType('a.svg')).toBe('image/svg+xml');
    const ctx = createContextRuntime({ mimeTypes: { svg: 'text/plain' } });
    expect(ctx.settings.mimeType('a.svg')).toBe('text/plain');
    expect(
      createContextRuntime({ mimeTypes: { up: 'a/b' }, mimeDefaults: false }).settings.mimeType('a.svg'),
    ).toBeNull();
  });

  it('expresses a merged map against the defaults: only what differs, or the whole map when a default is gone', () => {
    const merged = new Map(TOMCAT_MIME_TYPES);
    merged.set('up', 'text/x-up');
    merged.set('css', 'text/x-css');
    expect(mimeMappingsAgainstDefaults(merged)).toEqual({
      mappings: { up: 'text/x-up', css: 'text/x-css' },
      defaults: true,
    });
    expect(mimeMappingsAgainstDefaults(TOMCAT_MIME_TYPES)).toEqual({ mappings: {}, defaults: true });
    const few = mimeMappingsAgainstDefaults({ html: 'text/html' });
    expect(few).toEqual({ mappings: { html: 'text/html' }, defaults: false });
  });

  it('refuses mappings that are not strings', () => {
    expect(() => createMimeLookup({ up: 1 as unknown as string })).toThrow(TypeError);
  });
});
