import type { MetricFamily } from './prometheus-text';

/** The process basics: resident memory and how long it has been up. */
export function processMetrics(): MetricFamily[] {
  return [
    {
      name: 'process_resident_memory_bytes',
      help: 'Resident memory size in bytes',
      type: 'gauge',
      samples: [{ name: 'process_resident_memory_bytes', labels: {}, value: process.memoryUsage.rss() }],
    },
    {
      name: 'process_uptime_seconds',
      help: 'Seconds since the process started',
      type: 'gauge',
      samples: [{ name: 'process_uptime_seconds', labels: {}, value: process.uptime() }],
    },
  ];
}
