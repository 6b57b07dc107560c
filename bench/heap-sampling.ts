/**
 * A sampling heap profile of a stretch of this process that counts garbage too (objects a scavenge or a mark-sweep
 * collected before the profile was taken), so it answers "who allocates per transfer", not only "who holds memory".
 * A diagnostic for the transfer benches (bench/transfer-phases.ts `HEAP=<file>`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

export interface HeapSampling {
  /** Stops sampling; writes the profile to `file` (for DevTools) and returns the top allocation sites. */
  stop(file: string, top?: number): Promise<{ totalBytes: number; sites: { site: string; bytes: number }[] }>;
}

/**
 * `survivorsOnly` leaves out what scavenges collected: what remains is what outlived the young generation (promoted
 * to the old one, where only a mark-sweep frees it), the objects that make scavenges and concurrent marking costly.
 */
export async function startHeapSampling(samplingInterval = 4096, survivorsOnly = false): Promise<HeapSampling> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !survivorsOnly,
  } as never);
  return {
    async stop(file, top = 40) {
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
        profile: { head: HeapNode };
      };
      session.disconnect();
      writeFileSync(file, JSON.stringify(profile));
      const bySite = new Map<string, number>();
      let totalBytes = 0;
      const walk = (n: HeapNode, caller: string) => {
        const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/');
        const here = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
        // Builtins and natives allocate on behalf of their caller: name both.
        const site = url === '' ? `${here} ← ${caller}` : here;
        if (n.selfSize > 0) {
          bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
          totalBytes += n.selfSize;
        }
        for (const c of n.children) walk(c, url === '' ? caller : here);
      };
      walk(profile.head, '(root)');
      const sites = [...bySite]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([site, bytes]) => ({ site, bytes }));
      return { totalBytes, sites };
    },
  };
}
