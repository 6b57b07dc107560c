/** The readiness and sync-status figures of the health endpoints (src/server/health.ts). */
import * as s from './setting.js';

export const healthSettings = {
  'network.rpc.health.no-update-duration-threshold': s.duration({
    default: 30 * 60_000,
    description: 'readiness fails when the best block has not moved for this long',
  }),
  'network.rpc.health.syncing-status-threshold': s.int({
    default: 10,
    description: 'blocks behind the target before syncStatus reports SYNCING',
  }),
};
