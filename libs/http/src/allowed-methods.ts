/** The parts of an Express 5 router this reads: its layers, each with a route and a path matcher. */
interface RouterLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

export type AllowedMethods = (path: string) => string[];

/**
 * The methods the app answers on a path, read from the Express router, so that a known path
 * asked with another method answers 405 with `Allow`, and an unknown path 404.
 */
export function allowedMethodsOf(expressApp: unknown): AllowedMethods {
  return (path) => {
    const methods = new Set<string>();
    for (const layer of (expressApp as { router?: { stack: RouterLayer[] } }).router?.stack ?? []) {
      if (layer.route && layer.match(path)) for (const method of Object.keys(layer.route.methods)) methods.add(method.toUpperCase());
    }
    return [...methods].sort();
  };
}
