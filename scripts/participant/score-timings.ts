import { performance } from "node:perf_hooks";
import { formatDecimal } from "@/lib/core/format/numbers";

/**
 * Phase timings of the offline scorer, for profiling it: with
 * IRC_BENCH_SCORE_TIMINGS=1 the scorer writes one "timing: PHASE MS" line per
 * phase to stderr after its output, with the CPU the process used in it (all
 * threads; far less disturbed by other jobs on the machine than wall time). Off, every call is a no-op. The first
 * phases come from Node itself (process start to the end of its bootstrap)
 * and from the bundle's first line (scripts/build/build-cli.mjs puts
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
  const phases: [string, number, number | null][] = [];
  let last = 0;
  let lastCpu = 0;
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const close = (phase: string, at: number, cpu: number | null = cpuMs()) => {
    phases.push([phase, at - last, cpu === null ? null : cpu - lastCpu]);
    last = at;
    if (cpu !== null) lastCpu = cpu;
  };
  return {
    start: () => {
      // CPU is only known from here on: the start-up phases' CPU is shown as one figure, on the last of them.
      close("node start-up (to the end of its bootstrap)", performance.nodeTiming.bootstrapComplete, null);
      const loaded = (globalThis as { __ircBenchLoaded?: number }).__ircBenchLoaded;
      if (loaded !== undefined) close("bundle read + compile", loaded, null);
      close("module evaluation", performance.now());
    },
    mark: (phase) => close(phase, performance.now()),
    report: () => {
      const total = phases.reduce((sum, [, ms]) => sum + ms, 0);
      const rows: [string, number, number | null][] = [...phases, ["total (to the end of output)", total, cpuMs()]];
      for (const [phase, ms, cpu] of rows) {
        const cpuText = cpu === null ? "" : `  cpu ${formatDecimal(cpu, 1).padStart(7)} ms`;
        process.stderr.write(`timing: ${phase.padEnd(44)} ${formatDecimal(ms, 1).padStart(7)} ms${cpuText}\n`);
      }
    },
  };
}
