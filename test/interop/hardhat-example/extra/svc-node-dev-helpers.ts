/**
 * A Hardhat 3 plugin a user can put in their config to use Hardhat's network helpers (loadFixture, time, mine,
 * setBalance…) against a svc-node dev node: the helpers refuse any node whose web3_clientVersion does not start with
 * "hardhat", "zksync" or "anvil" (HHE60015), although every method they call is served by svc-node's dev chain.
 */
import type { HardhatPlugin } from 'hardhat/types/plugins';

const svcNodeDevHelpers: HardhatPlugin = {
  id: 'svc-node-dev-helpers',
  hookHandlers: {
    network: async () => ({
      default: async () => ({
        async onRequest(context, connection, request, next) {
          const response = await next(context, connection, request);
          if (request.method !== 'web3_clientVersion' || !('result' in response)) return response;
          return { ...response, result: `anvil-compatible ${String(response.result)}` };
        },
      }),
    }),
  },
};

export default svcNodeDevHelpers;
