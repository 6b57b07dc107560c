/** The receipt of a sent transaction, asked for until the node has it (a dev node answers within a block). */
export async function receiptOf(
  rpc: (method: string, params: unknown[]) => Promise<any>,
  hash: string,
  tries = 200,
): Promise<any> {
  for (let i = 0; i < tries; i++) {
    const receipt = await rpc('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no receipt for ${hash}`);
}
