/**
 * Where ETC and Mordor nodes first look for peers: the bootnodes and EIP-1459 DNS trees core-geth ships
 * (../shared/reference/etc-network-entry-points.md, late 2026). Addresses go stale, so these are only defaults:
 * `--bootnodes` and `--dns` replace them. The etcdisco.net trees name no public key, so they cannot be verified
 * and are left out.
 */
import type { NetworkName } from '../../chain/index.js';

const BLOCKD_KEY = 'AJE62Q4DUX4QMMXEHCSSCSC65TDHZYSMONSD64P3WULVLSF6MRQ3K';

const ETC_BOOTNODES = [
  'enode://6b6ea53a498f0895c10269a3a74b777286bd467de6425c3b512740fcc7fbc8cd281dca4ab041dd97d62b38f3d0b5b05e71f48d28a3a2f4b5de40fe1f6bf05531@157.245.77.211:30303',
  'enode://16264d48df59c3492972d96bf8a39dd38bab165809a3a4bb161859a337de38b2959cc98efea94355c7a7177cd020867c683aed934dbd6bc937d9e6b61d94d8d9@64.225.0.245:30303',
  'enode://55bbc7f0ffa2af2ceca997ec195a98768144a163d389ae87b808dff8a861618405c2582451bbb6022e429e4bcd6b0e895e86160db6e93cdadbcfd80faacf6f06@164.90.144.106:30303',
];

const MORDOR_BOOTNODES = [
  'enode://4539a067ae1f6a7ffac509603ba37baf772fc832880ddc67c53f292b6199fb048267f0311c820bc90bfd39ec663bc6b5256bdf787ec38425c82bde6bc2bcfe3c@24.199.107.164:30303',
];

export function defaultBootnodes(network: NetworkName): readonly string[] {
  return network === 'etc' ? ETC_BOOTNODES : network === 'mordor' ? MORDOR_BOOTNODES : [];
}

export function defaultDnsTrees(network: NetworkName): readonly string[] {
  if (network === 'etc') return [`enrtree://${BLOCKD_KEY}@all.classic.blockd.info`];
  if (network === 'mordor') return [`enrtree://${BLOCKD_KEY}@all.mordor.blockd.info`];
  return [];
}
