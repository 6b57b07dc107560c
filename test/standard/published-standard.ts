/**
 * The standard the input audit compares against: the execution-apis `eth_*` methods as published in the npm
 * package @metamask/api-specs (Apache-2.0), installed as a pinned devDependency so the audit is repeatable.
 *
 * The package's `dist/build/openrpc.json` is one OpenRPC document that merges MetaMask's own wallet methods with
 * the methods of ethereum/execution-apis (at the commit the package's build pins). Its build tags every method
 * taken from execution-apis with the plain tag `{ name: 'Ethereum API' }`; MetaMask's own methods carry `$ref`
 * tags instead, and where both define a method the merge keeps MetaMask's definition. So a method counts here
 * when it carries that tag and openrpc.json defines it too; MetaMask's own definitions are skipped, each listed
 * below with the reason, and a test fails on any package method ours defines that is neither counted nor listed.
 *
 * The published copy is older than the execution-apis head: its storage slot, for one, is `uint256` where the
 * current standard says `bytesMax32` (0 to 32 bytes, leading zeros allowed). The current standard's wider inputs
 * are asserted directly in input-audit.test.ts and test/rpc/eth/inputs.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { StandardParam, StandardSpec } from './input-audit.js';
import type { Schema } from './sample-values.js';

export const STANDARD_PACKAGE = '@metamask/api-specs';
/** The tag the package's build puts on every method it takes from ethereum/execution-apis. */
export const EXECUTION_APIS_TAG = 'Ethereum API';

const SCHEMA_REF = '#/components/schemas/';

/**
 * Methods of the package that are MetaMask's own definitions, not execution-apis ones, and why each is left out:
 * the eth_* ones, and every one that openrpc.json also defines (wallet_* methods ours lacks are not listed).
 */
export const METAMASK_OWN_METHODS: { readonly [method: string]: string } = {
  eth_requestAccounts: 'a wallet method (asks the user to connect accounts); not in execution-apis',
  eth_signTypedData_v4: 'a wallet method (EIP-712 signing by the user); not in execution-apis',
  eth_decrypt: 'a wallet method (decrypts with a key the wallet holds); not in execution-apis',
  eth_getEncryptionPublicKey: 'a wallet method (the wallet’s encryption key); not in execution-apis',
  eth_accounts: "MetaMask's definition (the accounts a site may see) replaces execution-apis' in the package",
  eth_sendTransaction:
    "MetaMask's wallet definition (requires `from`, and `data` when there is no `to`) replaces execution-apis' GenericTransaction param in the package",
  eth_subscribe: "MetaMask's description of its provider's subscriptions; not from execution-apis",
  eth_unsubscribe: "MetaMask's description of its provider's subscriptions; not from execution-apis",
  personal_sign: "a wallet method in MetaMask's definition; not in execution-apis",
  web3_clientVersion: "MetaMask's definition; not from execution-apis",
};

interface OpenRpcDocument {
  readonly methods: readonly {
    readonly name: string;
    readonly tags?: readonly { readonly name?: string; readonly $ref?: string }[];
    readonly params: readonly {
      readonly name: string;
      readonly required?: boolean;
      readonly schema?: Schema;
      readonly $ref?: string;
    }[];
  }[];
  readonly components: { readonly schemas: { readonly [key: string]: Schema } };
}

export interface PublishedPackage {
  readonly version: string;
  readonly file: string;
  readonly document: OpenRpcDocument;
}

/** The installed package: its version and its merged OpenRPC document. */
export function readPublishedPackage(): PublishedPackage {
  const require = createRequire(import.meta.url);
  const file = require.resolve(`${STANDARD_PACKAGE}/dist/build/openrpc.json`);
  const { version } = JSON.parse(readFileSync(require.resolve(`${STANDARD_PACKAGE}/package.json`), 'utf8')) as {
    version: string;
  };
  return { version, file, document: JSON.parse(readFileSync(file, 'utf8')) as OpenRpcDocument };
}

export const isExecutionApisMethod = (method: OpenRpcDocument['methods'][number]): boolean =>
  (method.tags ?? []).some((t) => t.name === EXECUTION_APIS_TAG);

/**
 * The params of the execution-apis methods that `ourMethods` also holds, and the component schemas they reach
 * (followed through `$ref`s), kept as the package writes them.
 */
export function loadPublishedStandard(
  ourMethods: ReadonlySet<string>,
  pkg: PublishedPackage = readPublishedPackage(),
): StandardSpec {
  const { document } = pkg;
  const methods: Record<string, { params: StandardParam[] }> = {};
  for (const method of document.methods) {
    if (!ourMethods.has(method.name) || !isExecutionApisMethod(method)) continue;
    if (method.name in METAMASK_OWN_METHODS)
      throw new Error(`${method.name} is listed as MetaMask's own but tagged "${EXECUTION_APIS_TAG}"`);
    methods[method.name] = {
      params: method.params.map((p) => {
        if (p.schema === undefined)
          throw new Error(`${method.name} param ${p.name}: a param without an inline schema is not read`);
        // OpenRPC: a param without `required: true` is optional.
        return { name: p.name, required: p.required === true, schema: p.schema };
      }),
    };
  }

  const schemas: Record<string, Schema> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      const ref = (value as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') {
        if (!ref.startsWith(SCHEMA_REF)) throw new Error(`$ref ${ref} does not point into components.schemas`);
        const key = ref.slice(SCHEMA_REF.length);
        if (!(key in schemas)) {
          const schema = document.components.schemas[key];
          if (schema === undefined) throw new Error(`${STANDARD_PACKAGE} has no schema for ${ref}`);
          schemas[key] = schema;
          visit(schema);
        }
      }
      Object.values(value).forEach(visit);
    }
  };
  for (const m of Object.values(methods))
    m.params.forEach((p) => {
      visit(p.schema);
    });

  return { source: { package: STANDARD_PACKAGE, version: pkg.version, file: pkg.file }, methods, schemas };
}
