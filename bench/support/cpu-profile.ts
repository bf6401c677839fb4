/**
 * Where a `.cpuprofile` (`node --cpu-prof`) spends its time: self time per function and per area
 * (a package, a lib of the repo, Node's internals, native code, the collector), optionally only
 * between two instants of the profile's clock (µs of `process.hrtime`, which V8's profiler uses on
 * Linux), so that start-up and seeding stay out of it.
 *
 *   node dist/bench/support/cpu-profile.js <file.cpuprofile> [top] [fromUs] [toUs]
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Of the busy time (idle excluded). */
  share: number;
}

export interface ProfileSummary {
  /** Sampled time in the window, and the part of it that was not idle, in ms. */
  totalMs: number;
  busyMs: number;
  functions: SelfTime[];
  areas: SelfTime[];
}

const REPO = /^file:\/\/.*?\/dist\//;

/** The part of the repo or the package a script belongs to. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : `(native) ${functionName || 'anonymous'}`;
  if (url.startsWith('node:')) return 'node internals';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const repo = /\/dist\/((?:libs|apps)\/[^/]+|bench)\//.exec(url);
  return repo ? repo[1] : url;
}

function where(frame: CallFrame): string {
  if (frame.url === '') return '';
  const short = frame.url.replace(REPO, '').replace(/^file:\/\/.*node_modules\//, '').replace(/^node:/, 'node:');
  return ` ${short}:${frame.lineNumber + 1}`;
}

/**
 * Self time of each function (by name and place) and each area over the samples between `fromUs`
 * and `toUs`: a sample is charged the time until the next one.
 */
export function summarise(profile: CpuProfile, { top = 25, fromUs = -Infinity, toUs = Infinity }: { top?: number; fromUs?: number; toUs?: number } = {}): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  const times: number[] = profile.timeDeltas.map((delta) => (at += delta));
  for (let i = 0; i < profile.samples.length; i++) {
    const time = times[i];
    if (time < fromUs || time > toUs) continue;
    const us = i + 1 < times.length ? times[i + 1] - time : 0;
    const frame = frames.get(profile.samples[i])!;
    total += us;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = `${frame.functionName || '(anonymous)'}${where(frame)}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const busy = total - idle;
  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busy > 0 ? us / busy : 0 }));
  return { totalMs: total / 1000, busyMs: busy / 1000, functions: ranked(byFunction), areas: ranked(byArea) };
}

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** The summary as text: the busy share of the window, then the top functions and areas by self time. */
export function formatSummary(title: string, summary: ProfileSummary): string {
  const line = (row: SelfTime) => `  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(7)} ms  ${row.name}`;
  return [
    `${title}: ${summary.totalMs.toFixed(0)} ms sampled, ${summary.busyMs.toFixed(0)} ms busy (${((summary.busyMs / Math.max(1, summary.totalMs)) * 100).toFixed(0)}%)`,
    ' top functions by self time (share of busy time):',
    ...summary.functions.map(line),
    ' by area:',
    ...summary.areas.map(line),
  ].join('\n');
}

if (require.main === module) {
  const [file, top, from, to] = process.argv.slice(2);
  if (!file) {
    console.error('usage: cpu-profile.js <file.cpuprofile> [top] [fromUs] [toUs]');
    process.exit(2);
  }
  const summary = summarise(readProfile(file), { top: top ? Number(top) : 25, fromUs: from ? Number(from) : -Infinity, toUs: to ? Number(to) : Infinity });
  console.log(formatSummary(file, summary));
}
