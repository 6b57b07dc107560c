/**
 * Methods other dev nodes serve that svc-node deliberately does not, each with the reason: a client asking for one gets
 * -32601 saying why and what to do instead, where a bare "does not exist" would read as an oversight.
 * Remove an entry when its method gets a handler (the entry would never be read again).
 */
const UNSERVED: ReadonlyMap<string, string> = new Map([
  [
    'anvil_setChainId',
    'the dev chain id (eth_chainId) is fixed: its stored blocks hold transactions signed for it, and the call and ' +
      'seal-check workers execute with their own copy of it, so changing it needs a chain id per block that reaches ' +
      'every executor; sign for the chain id eth_chainId answers',
  ],
  [
    'anvil_impersonateSignature',
    'ecrecover (precompile 0x01) must answer the same in every executor: block execution, the call and seal-check ' +
      'workers and trace replays would all need the impersonated signatures, or sealed blocks would fail their check; ' +
      'sign with a key, or use anvil_impersonateAccount to send as an account',
  ],
]);

/** Why `method` is not served, or undefined when it is not one of the deliberate omissions. */
export function unservedReason(method: string): string | undefined {
  return UNSERVED.get(method);
}
