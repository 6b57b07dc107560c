/** The part of autocannon 9's API the load generator uses (the package ships no type declarations). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
      verifyBody?: (body: string) => boolean;
    }
    interface Result {
      duration: number;
      '2xx': number;
      non2xx: number;
      errors: number;
      timeouts: number;
      mismatches: number;
    }
  }

  function autocannon(
    options: autocannon.Options,
    done: (err: Error | null, result: autocannon.Result) => void,
  ): EventEmitter;
  export default autocannon;
}
