import { deepStrictEqual } from 'node:assert/strict';
import { runProcess, type ProcessDecider, type ProcessInput, type ProcessOutput } from '../process';

/**
 * Specifications for process deciders, read as `given(inputs).when(input).then(outputs)`: the
 * given inputs are handled one by one as the runtime would (decided, then folded in), so a spec
 * states a flow's history the way it happened.
 *
 *   spec.given([taxIdAdded]).when(commandRejected).then([{ kind: 'command', command: retry }]);
 *   spec.given([taxIdAdded]).when(taxIdAdded).thenNothingHappens();
 */
export const ProcessSpecification = {
  for<S, I extends ProcessInput, O extends ProcessOutput>(decider: ProcessDecider<S, I, O>) {
    return {
      given(inputs: readonly I[]) {
        return {
          when(input: I) {
            const run = () => decider.decide(input, runProcess(decider, inputs));
            return {
              then(expected: readonly O[]) {
                deepStrictEqual(asStored(run()), asStored(expected));
              },
              thenNothingHappens() {
                deepStrictEqual(run(), []);
              },
            };
          },
        };
      },
    };
  },
};

const asStored = (outputs: readonly ProcessOutput[]): unknown => JSON.parse(JSON.stringify(outputs));
