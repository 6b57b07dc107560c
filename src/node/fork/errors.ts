/** The fork's upstream failure, for the JSON-RPC layer (which may not reach into the engine itself). */
export { ForkUpstreamError, forkUpstreamErrorIn } from '../../chain/index.js';
