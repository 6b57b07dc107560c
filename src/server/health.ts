/**
 * `/health` (liveness), `/readiness` and `/healthcheck`, with the bodies and status codes of the original product:
 * `{"checks":[{"name","status":"OK"|"ERROR","info"?}]}`. A check that throws is reported as ERROR with the message.
 *
 * Readiness = synced with at least one handshaked peer. Two departures from the product, both so that the answer
 * means "ready": readiness also fails while syncStatus is SYNCING (more than syncing-status-threshold blocks
 * behind), and a dev node with no peers configured (no peering, or no bootnodes and nothing dialled) and none
 * connected since its start is a single-node chain, ready (and healthy in /healthcheck) without peers.
 */
import type { ChainStatus, SvcNode } from '../node/node.js';
import { describeSearch } from '../p2p/search-log.js';

export interface HealthCheck {
  readonly name: string;
  readonly status: 'OK' | 'ERROR';
  readonly info?: string;
}

export interface HealthReport {
  readonly httpStatus: 200 | 500 | 503;
  readonly body: { readonly checks: readonly HealthCheck[] };
}

type CheckFn = (status: ChainStatus) => HealthCheck;
type CheckName =
  | 'peerCount'
  | 'bestStoredBlock'
  | 'bestKnownBlock'
  | 'bestFetchingBlock'
  | 'updateStatus'
  | 'syncStatus';

export class HealthChecker {
  #lastFetching: bigint | undefined;
  #lastChangeAt: number;

  constructor(
    private readonly node: SvcNode,
    private readonly now: () => number = Date.now,
  ) {
    this.#lastChangeAt = now();
  }

  liveness(): HealthReport {
    return { httpStatus: 200, body: { checks: [{ name: 'server', status: 'OK', info: 'running' }] } };
  }

  readiness(): HealthReport {
    return this.#report(['peerCount', 'bestStoredBlock', 'updateStatus', 'syncStatus'], 503, this.#readinessChecks);
  }

  healthcheck(): HealthReport {
    return this.#report(
      ['peerCount', 'bestStoredBlock', 'bestKnownBlock', 'bestFetchingBlock', 'updateStatus', 'syncStatus'],
      500,
    );
  }

  #report(
    names: readonly CheckName[],
    failStatus: 500 | 503,
    checks: Record<CheckName, CheckFn> = this.#checks,
  ): HealthReport {
    let status: ChainStatus | undefined;
    let statusError: unknown;
    try {
      status = this.node.chainStatus();
    } catch (err) {
      statusError = err;
    }
    const results = names.map((name): HealthCheck => {
      try {
        if (status === undefined) throw statusError;
        return checks[name](status);
      } catch (err) {
        return { name, status: 'ERROR' as const, info: err instanceof Error ? err.message : String(err) };
      }
    });
    return { httpStatus: results.every((c) => c.status === 'OK') ? 200 : failStatus, body: { checks: results } };
  }

  readonly #checks: Record<CheckName, CheckFn> = {
    peerCount: (s) => this.#peerCount(s),
    bestStoredBlock,
    bestKnownBlock,
    bestFetchingBlock,
    updateStatus: (s) => this.#updateStatus(s),
    syncStatus: (s) => this.#syncStatus(s),
  };

  /** The same checks, except that a node still SYNCING is not ready (the detailed healthcheck reports it as OK). */
  readonly #readinessChecks: Record<CheckName, CheckFn> = {
    ...this.#checks,
    syncStatus: (s) => {
      const check = this.#syncStatus(s);
      return check.info === 'SYNCING' && s.syncing
        ? {
            name: 'syncStatus',
            status: 'ERROR',
            info: `SYNCING (${s.syncing.snapPhase !== undefined ? `snap sync, ${s.syncing.snapPhase}; ` : ''}at block ${s.syncing.currentBlock}, target ${s.syncing.targetBlock})`,
          }
        : check;
    },
  };

  /** ERROR without handshaked peers, unless this is a single-node dev chain (dev, and no peer configured to dial). */
  #peerCount(s: ChainStatus): HealthCheck {
    if (s.peerCount > 0) return { name: 'peerCount', status: 'OK', info: String(s.peerCount) };
    const peers = this.node.peers;
    if (this.node.network.name === 'dev' && (peers === undefined || !peers.hasConfiguredPeers())) {
      return { name: 'peerCount', status: 'OK', info: '0 (single-node dev chain: no peers configured)' };
    }
    // Said here too: a readiness probe is often all an operator of a --no-p2p mordor/etc node looks at.
    if (!this.node.config.p2p.enabled && peers === undefined)
      return { name: 'peerCount', status: 'ERROR', info: 'peer count is 0; peering is off (--p2p turns it on)' };
    const search = peers === undefined ? '' : `; ${describeSearch(peers.search())}`;
    return { name: 'peerCount', status: 'ERROR', info: `peer count is 0${search}` };
  }

  /** ERROR when the block being fetched has not moved for `no-update-duration-threshold`. */
  #updateStatus(s: ChainStatus): HealthCheck {
    const fetching = fetchingBlock(s);
    const now = this.now();
    if (fetching !== this.#lastFetching) {
      this.#lastFetching = fetching;
      this.#lastChangeAt = now;
    }
    const threshold = this.node.config.rpc.health.noUpdateDurationThresholdMs;
    return now - this.#lastChangeAt > threshold
      ? {
          name: 'updateStatus',
          status: 'ERROR',
          info: `block did not change for more than ${Math.round(threshold / 1000)} s`,
        }
      : { name: 'updateStatus', status: 'OK' };
  }

  #syncStatus(s: ChainStatus): HealthCheck {
    if (!s.syncing) return { name: 'syncStatus', status: 'OK', info: 'STARTING' };
    const behind = s.syncing.targetBlock - s.syncing.currentBlock;
    const syncing = behind > BigInt(this.node.config.rpc.health.syncingStatusThreshold);
    return { name: 'syncStatus', status: 'OK', info: syncing ? 'SYNCING' : 'SYNCED' };
  }
}

function bestStoredBlock(s: ChainStatus): HealthCheck {
  return s.bestStoredBlock !== undefined
    ? { name: 'bestStoredBlock', status: 'OK', info: s.bestStoredBlock.toString() }
    : { name: 'bestStoredBlock', status: 'ERROR', info: 'No block is currently stored' };
}

function bestKnownBlock(s: ChainStatus): HealthCheck {
  const known = s.syncing ? s.syncing.targetBlock : s.bestStoredBlock;
  return known !== undefined
    ? { name: 'bestKnownBlock', status: 'OK', info: known.toString() }
    : { name: 'bestKnownBlock', status: 'ERROR', info: 'no block is known' };
}

function bestFetchingBlock(s: ChainStatus): HealthCheck {
  const fetching = fetchingBlock(s);
  return fetching !== undefined
    ? { name: 'bestFetchingBlock', status: 'OK', info: fetching.toString() }
    : { name: 'bestFetchingBlock', status: 'ERROR', info: 'no best fetching block' };
}

const fetchingBlock = (s: ChainStatus): bigint | undefined => (s.syncing ? s.syncing.currentBlock : s.pendingBlock);
