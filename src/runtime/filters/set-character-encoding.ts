/**
 * SetCharacterEncodingFilter: sets the request character encoding (always
 * with ignore=true, otherwise only when the request names none) before
 * anything reads parameters or the body.
 */
import type { SetCharacterEncodingConfig } from '../../filters/set-character-encoding.js';
import { charsetDecoder } from '../../protocol/charset.js';
import type { RuntimeFilterFactory } from '../types.js';

export const create: RuntimeFilterFactory<SetCharacterEncodingConfig> = (config, ctx) => {
  const encoding = config.encoding;
  if (encoding === null) return { name: 'SetCharacterEncodingFilter', doFilter: (_ex, next) => next() };
  // The name the request reports, spelled so the runtime can decode it: Java's canonical name when Node knows it, else Node's label.
  const usable =
    charsetDecoder(encoding) !== null
      ? encoding
      : config.decoder !== null && charsetDecoder(config.decoder) !== null
        ? config.decoder
        : null;
  // A name Java does not know, Tomcat 10.1.60 never applies: requests are answered and decoded in the default
  // charset (observed: GET, a form POST and getReader() answered 200; test/fixtures/tomcat-observed/rules.json).
  if (!config.supported) {
    ctx.logger.warning(
      `Filter [${ctx.filterName}]: Unsupported encoding [${encoding}]: Java does not know this character set; requests keep the default one`,
    );
    return { name: 'SetCharacterEncodingFilter', doFilter: (_ex, next) => next() };
  }
  // One Java knows and Node cannot decode: failing beats decoding it wrongly.
  const failure =
    usable === null
      ? `Unsupported encoding [${encoding}]: Java knows this character set but Node cannot decode it`
      : null;
  if (failure !== null)
    ctx.logger.warning(`Filter [${ctx.filterName}]: ${failure}; every request it sets the encoding on fails with 500`);
  const ignore = config.ignore;
  return {
    name: 'SetCharacterEncodingFilter',
    doFilter(ex, next) {
      if (ignore || ex.request.characterEncoding === null) {
        if (failure !== null) throw new Error(failure);
        ex.request.setCharacterEncoding(usable!);
      }
      return next();
    },
  };
};
