import { performance } from "node:perf_hooks";

/**
 * Phase timings of the offline scorer, for profiling it (issue 12): with
 * IRC_BENCH_SCORE_TIMINGS=1 the scorer writes one "timing: PHASE MS" line per
 * phase to stderr after its output. Off, every call is a no-op. The first
 * phases come from Node itself (process start to the end of its bootstrap)
 * and from the bundle's first line (scripts/build-cli.mjs puts
 * `globalThis.__ircBenchLoaded = performance.now()` there): the bundle's
 * read and compile, then the evaluation of its modules.
 */

export type PhaseTimer = {
  /** Called when the scorer's own code starts: closes the start-up phases. */
  start: () => void;
  /** Closes the phase that ran since the previous mark. */
  mark: (phase: string) => void;
  /** Writes the phases to stderr. */
  report: () => void;
};

const OFF: PhaseTimer = { start: () => undefined, mark: () => undefined, report: () => undefined };

export function createPhaseTimer(isOn: boolean): PhaseTimer {
  if (!isOn) return OFF;
  const phases: [string, number][] = [];
  let last = 0;
  const close = (phase: string, at: number) => {
    phases.push([phase, at - last]);
    last = at;
  };
  return {
    start: () => {
      close("node start-up (to the end of its bootstrap)", performance.nodeTiming.bootstrapComplete);
      const loaded = (globalThis as { __ircBenchLoaded?: number }).__ircBenchLoaded;
      if (loaded !== undefined) close("bundle read + compile", loaded);
      close("module evaluation", performance.now());
    },
    mark: (phase) => close(phase, performance.now()),
    report: () => {
      const total = phases.reduce((sum, [, ms]) => sum + ms, 0);
      for (const [phase, ms] of [...phases, ["total (to the end of output)", total] as [string, number]]) {
        process.stderr.write(`timing: ${phase.padEnd(44)} ${ms.toFixed(1).padStart(7)} ms\n`);
      }
    },
  };
}
