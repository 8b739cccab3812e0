/**
 * Where the JSON Schemas are published: the raw files of schemas/ in the repository, which an
 * editor fetches as JSON (the repository's /blob/ pages are HTML). Every schema's $id, and the
 * $schema of documents tollgate writes, come from here; the README's example is held to it by a test.
 */
export const SCHEMA_BASE_URL = 'https://raw.githubusercontent.com/tollgate/tollgate/main/schemas';

export const CHAIN_SCHEMA_URL = `${SCHEMA_BASE_URL}/tollgate.chain.schema.json`;
