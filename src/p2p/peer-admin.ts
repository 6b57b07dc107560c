/** The admin_* peer operations over the peer manager (see `PeerAdmin` in types.ts). */
import { parseEnode } from './enode.js';
import type { PeerManager } from './peer-manager.js';
import type { PeerAdmin } from './types.js';

/** The node id (hex) of an enode URL; parseEnode throws PeerInputError for a malformed one. */
const idOf = (enode: string): string => Buffer.from(parseEnode(enode).id).toString('hex');

export function peerAdmin(manager: PeerManager, enr: () => string | null): PeerAdmin {
  return {
    get enr() {
      return enr();
    },
    removePeer(enode) {
      const id = idOf(enode);
      const wasTrusted = manager.trusted.delete(id);
      return manager.removeStatic(id) || wasTrusted;
    },
    addTrustedPeer(enode) {
      manager.trusted.add(idOf(enode));
      manager.addStatic(parseEnode(enode));
    },
    removeTrustedPeer(enode) {
      return manager.trusted.delete(idOf(enode));
    },
    isTrusted(nodeIdHex) {
      return manager.trusted.has(nodeIdHex.toLowerCase());
    },
  };
}
