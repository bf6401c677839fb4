/** Injection tokens of the ports that are interfaces. */
export const CLOCK = Symbol('Clock');
export const ID_GENERATOR = Symbol('IdGenerator');
export const TALLY_CONFIG = Symbol('TallyConfig');
