import { idlePauseMs } from './webhook-dispatcher';

describe('idlePauseMs: how long a dispatcher with nothing to do waits before it reads the outbox again', () => {
  it('starts at 10 ms and doubles with each idle pass in a row, up to 160 ms', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(idlePauseMs)).toEqual([10, 20, 40, 80, 160, 160, 160]);
  });
});
