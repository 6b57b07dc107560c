/** Every generated identifier comes from here, so types, validators, registry and client agree. */

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `eth_getBalance` → `EthGetBalance`, `tools/list` → `ToolsList`, `rpc.discover` → `RpcDiscover` (ARCHITECTURE.md). */
export function pascalMethodName(method: string): string {
  const pascal = method.split(/[_/.]/).filter(Boolean).map(upperFirst).join('');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(pascal))
    throw new Error(`method name ${method} does not give a TypeScript identifier`);
  return pascal;
}

/** Client SDK member: the method name with every non-identifier character replaced by `_` (`tools/list` → `tools_list`). */
export function clientMethodName(method: string): string {
  return method.replace(/[^A-Za-z0-9_$]/g, '_');
}

/** Component keys are lowerCamel primitives or PascalCase composites; both become PascalCase types (`uint` → `Uint`). */
export function componentTypeName(key: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new Error(`component schema name ${key} is not an identifier`);
  return upperFirst(key);
}

export const paramTypeName = (methodPascal: string, param: string): string =>
  `${methodPascal}${upperFirst(param)}Param`;
export const resultTypeName = (methodPascal: string): string => `${methodPascal}Result`;
export const paramsTupleName = (methodPascal: string): string => `${methodPascal}Params`;
export const validatorName = (typeName: string): string => `validate${typeName}`;
export const handlersInterfaceName = (namespace: string): string => `${upperFirst(namespace)}Handlers`;

/** A property key as written in TypeScript: bare when it is an identifier, quoted otherwise (`'tools/list'`). */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}
