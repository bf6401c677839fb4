import { DeciderSpecification } from './testing/decider-spec';
import { indexMembers, membershipIndex } from './membership-index';

type Seat = { team_id: string; player_id: string; playing: boolean; position: string };
const decider = membershipIndex({ command: 'RecordSeat', event: 'SeatRecorded' }, ({ player_id, playing, position }: Seat) => ({ member: player_id, joined: playing, value: position }));
const spec = DeciderSpecification.for(decider);
const recorded = (player_id: string, playing: boolean, position = 'wing') => ({ type: 'SeatRecorded' as const, data: { team_id: 'team_1', player_id, playing, position } });
const record = (player_id: string, playing: boolean, position = 'wing') => ({ type: 'RecordSeat' as const, data: recorded(player_id, playing, position).data });

describe('a membership index', () => {
  it('records a member that joins, a change of its value, and its leaving, each as the record it was given', () => {
    spec.given([]).when(record('p1', true)).then([recorded('p1', true)]);
    spec.given([recorded('p1', true)]).when(record('p1', true, 'goal')).then([recorded('p1', true, 'goal')]);
    spec.given([recorded('p1', true)]).when(record('p1', false)).then([recorded('p1', false)]);
  });

  it('records nothing it already holds: a member with the same value, or one that is not in it', () => {
    spec.given([recorded('p1', true)]).when(record('p1', true)).thenNothingHappens();
    spec.given([recorded('p1', true), recorded('p1', false)]).when(record('p1', false)).thenNothingHappens();
    spec.given([]).when(record('p2', false)).thenNothingHappens();
  });

  it('folds to its members with their values, in the order they joined', () => {
    const state = [recorded('p1', true), recorded('p2', true), recorded('p3', true), recorded('p1', true, 'goal'), recorded('p2', false)].reduce(decider.evolve, decider.initialState());
    expect([...indexMembers(state)]).toEqual([
      ['p1', 'goal'],
      ['p3', 'wing'],
    ]);
    expect([...indexMembers(decider.initialState())]).toEqual([]);
  });
});
