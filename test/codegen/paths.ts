import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The document under test; OPENRPC_FILE lets a draft be checked before it is committed. */
export const openrpcFile = process.env.OPENRPC_FILE ?? path.join(repoRoot, 'openrpc.json');
