import type { Web3Handlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { web3_clientVersion } from './clientVersion.js';
import { web3_sha3 } from './sha3.js';

export const web3Handlers: Web3Handlers<HandlerContext> = { web3_clientVersion, web3_sha3 };
