import { describe, expect, it } from 'vitest';
import { EVICTABLE_BELOW, PeerScore } from './peer-score.js';

describe('PeerScore', () => {
  it('starts at 100 and stays there for quick answers', () => {
    const score = new PeerScore();
    for (let i = 0; i < 10; i++) score.answered(50);
    expect(score.value).toBe(100);
    expect(score.latencyMs).toBe(50);
  });

  it('makes a peer evictable after a timeout or a bad answer, but not after one useless answer; good ones heal', () => {
    const score = new PeerScore();
    score.useless();
    expect(score.value).toBeGreaterThanOrEqual(EVICTABLE_BELOW);
    score.timedOut();
    expect(score.value).toBeLessThan(EVICTABLE_BELOW);
    for (let i = 0; i < 20; i++) score.answered(50);
    expect(score.value).toBe(100);
    const bad = new PeerScore();
    bad.bad();
    expect(bad.value).toBeLessThan(EVICTABLE_BELOW);
    expect([bad.badAnswers, bad.timeouts]).toEqual([1, 0]);
  });

  it('costs a slow peer points, and a useless answer a few', () => {
    const slow = new PeerScore();
    for (let i = 0; i < 30; i++) slow.answered(3_000);
    expect(slow.value).toBe(75);
    const useless = new PeerScore();
    useless.useless();
    expect(useless.value).toBe(95);
  });
});
