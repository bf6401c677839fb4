/**
 * Pricing engine throughput: lines priced per second by `priceComponent` for a mix of all six
 * models, against the minimal per-line work (one multiplication, one rounding) as the baseline.
 *
 *   npm run build && node -r ./scripts/register-paths.js dist/bench/pricing.bench.js
 */
import { performance } from 'node:perf_hooks';
import Big from 'big.js';
import { compilePricing, priceComponent, type CompiledPricing, type Pricing } from '@tally/catalog/published';
import { throughputTable, type ThroughputResult } from './support/throughput-table';

const LINES = 1_000_000;
const WARM_UP_LINES = 200_000;
const TARGET = 200_000;
/**
 * Distinct quantities, cycled: a million Big values would cost ~100 MB of heap. A multiple of
 * 1 to 6, so line i always meets a quantity drawn for its own model.
 */
const QUANTITY_POOL = 120_000;
const SEED = 20_260_101;

interface Case {
  pricing: Pricing;
  /** The per-unit price the baseline multiplies this model's quantities by. */
  unitAmount: string;
  quantity: (random: () => number) => Big;
}

const wholeUpTo = (max: number) => (random: () => number) => new Big(Math.floor(random() * (max + 1)));

const CASES: readonly Case[] = [
  { pricing: { model: 'flat', amount: '49.00' }, unitAmount: '49.00', quantity: () => new Big(1) },
  {
    pricing: { model: 'per_unit', unit_amount: '12.50', included_units: 3, meter: 'seats' },
    unitAmount: '12.50',
    quantity: wholeUpTo(50),
  },
  {
    pricing: {
      model: 'tiered',
      meter: 'seats',
      tiers: [
        { up_to: 5, unit_amount: '7.00', flat_amount: '10.00' },
        { up_to: 10, unit_amount: '6.50', flat_amount: null },
        { up_to: null, unit_amount: '6.00', flat_amount: null },
      ],
    },
    unitAmount: '6.50',
    quantity: wholeUpTo(40),
  },
  {
    pricing: {
      model: 'volume',
      meter: 'api_calls',
      tiers: [
        { up_to: 10_000, unit_amount: '0.0010', flat_amount: '10' },
        { up_to: 50_000, unit_amount: '0.0008', flat_amount: '10' },
        { up_to: 100_000, unit_amount: '0.0006', flat_amount: '10' },
        { up_to: null, unit_amount: '0.0004', flat_amount: '10' },
      ],
    },
    unitAmount: '0.0008',
    quantity: wholeUpTo(200_000),
  },
  {
    pricing: { model: 'package', package_size: 5, package_price: '10.00', rounding: 'up', meter: 'users' },
    unitAmount: '2.00',
    quantity: wholeUpTo(100),
  },
  {
    pricing: {
      model: 'usage',
      meter: 'storage_gb_hours',
      aggregation: 'sum',
      late_events: 'next_period',
      usage_cycle: 'period',
      unique_property: null,
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 1_000, unit_amount: '0', flat_amount: null },
        { up_to: 100_000, unit_amount: '0.00012345', flat_amount: null },
        { up_to: null, unit_amount: '0.00009876', flat_amount: null },
      ],
    },
    unitAmount: '0.00012345',
    // Metered usage, to 3 decimal places.
    quantity: (random) => new Big(Math.floor(random() * 300_000_000)).div(1000),
  },
];

/** mulberry32: a small seeded generator, so every run prices the same quantities. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Line i is priced by case `models[i % models.length]` at `quantities[i % pool]`, drawn for that case. */
interface Workload {
  models: number[];
  compiled: CompiledPricing[];
  unitAmounts: Big[];
  quantities: Big[];
}

function workload(models: number[]): Workload {
  const random = seededRandom(SEED);
  return {
    models,
    compiled: CASES.map((c) => compilePricing(c.pricing)),
    unitAmounts: CASES.map((c) => new Big(c.unitAmount)),
    quantities: Array.from({ length: QUANTITY_POOL }, (_, i) => CASES[models[i % models.length]].quantity(random)),
  };
}

/** Runs `priceLine` over `lines` lines; the digit count it sums keeps the work from being optimised away. */
function time(name: string, lines: number, priceLine: (i: number) => Big, target?: number): ThroughputResult {
  let digits = 0;
  const started = performance.now();
  for (let i = 0; i < lines; i++) digits += priceLine(i).c.length;
  const ms = performance.now() - started;
  if (digits === 0) throw new Error(`${name}: nothing was priced`);
  return { name, events: lines, ms, target };
}

function pricingCase(name: string, load: Workload, lines: number, target?: number): ThroughputResult {
  const { models, compiled, quantities } = load;
  return time(name, lines, (i) => priceComponent(compiled[models[i % models.length]], quantities[i % QUANTITY_POOL], 'USD').amount, target);
}

function baselineCase(name: string, load: Workload, lines: number): ThroughputResult {
  const { models, unitAmounts, quantities } = load;
  return time(name, lines, (i) => quantities[i % QUANTITY_POOL].times(unitAmounts[models[i % models.length]]).round(2, Big.roundHalfEven));
}

export async function runPricingBench(): Promise<string> {
  const mix = workload(CASES.map((_, i) => i));
  pricingCase('warm-up', mix, WARM_UP_LINES);
  baselineCase('warm-up', mix, WARM_UP_LINES);
  const results = [
    baselineCase('baseline: quantity × unit amount, rounded half-even, same quantities', mix, LINES),
    pricingCase('priceComponent, mix of all six models', mix, LINES, TARGET),
    ...CASES.map((c, model) => pricingCase(`priceComponent, ${c.pricing.model} only`, workload([model]), LINES / 5)),
  ];
  // The shared table counts events; here each one is a priced line.
  return throughputTable(results).replace('| Case | Events | Time (ms) | Events/s |', '| Case | Lines | Time (ms) | Lines/s |');
}

if (require.main === module) {
  runPricingBench().then(
    (markdown) => console.log(markdown),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
