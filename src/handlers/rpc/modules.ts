import type { Namespace } from '../../generated/registry.js';
import type { RpcModulesParams, RpcModulesResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** `{"<namespace>": "1.0", …}` for the enabled namespaces; `rpc` is always on. */
export function rpc_modules(_params: RpcModulesParams, ctx: HandlerContext): RpcModulesResult {
  const modules: Partial<Record<Namespace, string>> = {};
  for (const ns of ctx.node.enabledNamespaces) modules[ns] = '1.0';
  return { ...modules, rpc: '1.0' };
}
